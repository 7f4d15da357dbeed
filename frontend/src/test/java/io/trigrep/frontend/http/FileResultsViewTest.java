package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.FileResults;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.FrameLimits;
import io.trigrep.proto.Framing;
import io.trigrep.proto.LineMatch;
import io.trigrep.proto.Messages;
import io.trigrep.proto.Response;
import java.nio.charset.StandardCharsets;
import org.capnproto.MessageBuilder;
import org.capnproto.StructList;
import org.junit.jupiter.api.Test;

/**
 * A fileResults message whose claims contradict it (a line or match past its lines, more context
 * or ranges than it holds, a range past its line, a cut shorter than its text) shows what it can
 * and never throws: a backend is not trusted with the frontend's pages.
 */
class FileResultsViewTest {
    @Test
    void contradictoryClaimsAreClampedNotTrusted() throws Exception {
        MessageBuilder message = Messages.newBuilder();
        FileResults.Builder file = message.initRoot(Response.factory).initFileResults();
        file.setPackage("zlib").setPath("a.c").setLines("a\nb\n".getBytes(StandardCharsets.UTF_8));
        file.initRuns(1).get(0).setFirst(10).setCount(1); // numbers only the first of two lines
        var windows = file.initWindows(2);
        windows.get(0).setLine(5).setStart(1).setBytes(9); // no line 5
        windows.get(1).setLine(1).setStart(3).setBytes(1); // full length shorter than start + text
        StructList.Builder<LineMatch.Builder> matches = file.initMatches(3);
        matches.get(0).setLine(1).setBefore(200).setAfter(200).setRanges(1000).setRanking(0.5f);
        matches.get(1).setLine(99).setBefore(3).setAfter(3).setRanges(1);
        matches.get(2).setLine(-1).setBefore(255).setAfter(255);
        var ranges = file.initRanges(2);
        ranges.get(0).setStart(0).setEnd(100);
        ranges.get(1).setStart(5).setEnd(2);
        ByteBuf frame = Unpooled.buffer();
        Framing.write(message, frame);
        try {
            Response.Reader read = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
            FileResultsIndex index = new FileResultsIndex(read.getFileResults());

            ResultView first = new ResultView(index, 0);
            assertThat(first.line).as("a line no run numbers").isZero();
            assertThat(new String(first.context, StandardCharsets.UTF_8)).isEqualTo("b");
            assertThat(first.before).containsExactly("a");
            assertThat(first.after).isEmpty();
            assertThat(first.ranges).containsExactly(0, 1);
            assertThat(first.contextCut).isEqualTo(new ResultView.Cut(0, 3, 4, 4));
            assertThat(first.beforeCuts).containsExactly((ResultView.Cut) null);

            for (int m = 1; m < 3; m++) {
                ResultView past = new ResultView(index, m);
                assertThat(past.context).isEmpty();
                assertThat(past.before).isEmpty();
                assertThat(past.after).isEmpty();
                assertThat(past.ranges).isEmpty();
            }
        } finally {
            frame.release();
        }
    }
}
