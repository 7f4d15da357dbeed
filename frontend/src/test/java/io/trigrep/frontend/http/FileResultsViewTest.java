package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.trigrep.proto.FileResults;
import io.trigrep.proto.FileResultsIndex;
import io.trigrep.proto.FileResultsWriter;
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
    /**
     * A page of a thousand matches of one message (the API's largest page, a file whose every line
     * matches): each view reads its package and path from the index, not from the message, whose
     * read budget (8 bytes read per byte of message) a thousand reads of a long path overdrew.
     */
    @Test
    void aThousandMatchesOfOneMessageShowWithoutOverdrawingItsReadBudget() throws Exception {
        byte[] file = "x\n".repeat(1000).getBytes(StandardCharsets.UTF_8);
        ByteBuf source = Unpooled.wrappedBuffer(file);
        FileResultsWriter w = new FileResultsWriter(2);
        ByteBuf frame = Unpooled.buffer();
        w.file(
                "p".repeat(50).getBytes(StandardCharsets.UTF_8),
                "d/".repeat(100).getBytes(StandardCharsets.UTF_8),
                source);
        for (int line = 0; line < 1000; line++) {
            w.start(line + 1, 1f);
            for (int k = Math.max(0, line - 2); k < line; k++) {
                w.before(2 * k, 1);
            }
            w.match(2 * line, 1);
            for (int k = line + 1; k < Math.min(1000, line + 3); k++) {
                w.after(2 * k, 1);
            }
            w.range(0, 1);
            w.add(frame);
        }
        w.writeTo(frame);
        try {
            Response.Reader read = Messages.response(Framing.read(frame, FrameLimits.DEFAULT));
            FileResultsIndex index = new FileResultsIndex(read.getFileResults());
            assertThat(index.matches()).isEqualTo(1000);
            for (int m = 0; m < 1000; m++) {
                ResultView view = new ResultView(index, m);
                assertThat(view.line).isEqualTo(m + 1);
                assertThat(view.path).hasSize(200);
            }
            // A match the message does not hold (the peek of a hostile frame counted more): an empty line.
            assertThat(new ResultView(index, 1000).context).isEmpty();
        } finally {
            frame.release();
            source.release();
        }
    }

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
