package io.trigrep.frontend.query;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Issue 15: the three bounds of admission, each refusal with its reason, and slots given back once. */
class AdmissionTest {
    final List<Admission.Reason> refused = new ArrayList<>();
    final Admission admission = new Admission(4, 1, 2, refused::add);

    Admission.Reason refusal(String client, boolean fullScan) {
        Admission.Rejected e = catchThrowableOfType(() -> admission.admit(client, fullScan), Admission.Rejected.class);
        assertThat(e).as("refused: %s", client).isNotNull();
        return e.reason;
    }

    @Test
    void aClientsShareThenFullScansThenAllSlots() throws Exception {
        Admission.Ticket a1 = admission.admit("a", false);
        admission.admit("a", false);
        assertThat(refusal("a", false)).isEqualTo(Admission.Reason.CLIENT_SHARE);
        Admission.Ticket scan = admission.admit("b", true);
        assertThat(refusal("c", true)).isEqualTo(Admission.Reason.EXPENSIVE);
        admission.admit("c", false);
        assertThat(refusal("d", false)).isEqualTo(Admission.Reason.SLOTS);
        assertThat(refused)
                .containsExactly(Admission.Reason.CLIENT_SHARE, Admission.Reason.EXPENSIVE, Admission.Reason.SLOTS);

        // Given back once, however often released: one slot, one share, one full scan.
        a1.release();
        a1.release();
        assertThat(admission.running()).isEqualTo(3);
        scan.release();
        admission.admit("d", true);
        admission.admit("a", false);
        assertThat(refusal("e", false)).isEqualTo(Admission.Reason.SLOTS);
    }
}
