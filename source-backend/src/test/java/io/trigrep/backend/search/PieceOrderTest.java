package io.trigrep.backend.search;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

/** The order of an in-order search's pieces: what is sent, what is searched again, what is dropped. */
class PieceOrderTest {
    private static Piece taken(PieceOrder order, int doc, long results) {
        Piece p = order.appendTaken();
        p.add(0, doc, 0, 1);
        p.results = results;
        return p;
    }

    private static ByteBuf frame() {
        return Unpooled.buffer(8).writeLong(1);
    }

    @Test
    void piecesLeaveInOrderOnceDoneWhicheverFinishesFirst() {
        PieceOrder order = new PieceOrder(8);
        Piece a = taken(order, 1, 2);
        Piece b = taken(order, 2, 3);
        assertThat(a.exact).isTrue();
        assertThat(b.exact).isFalse();
        order.done(b);
        assertThat(order.poll(0, 100)).as("b waits for a").isNull();
        order.done(a);
        assertThat(order.poll(0, 100)).isSameAs(a);
        assertThat(order.poll(2, 100)).isSameAs(b);
        assertThat(order.isEmpty()).isTrue();
    }

    @Test
    void aPieceCountedFromTooLowABaseIsSearchedAgainAndWhatFollowsIsDropped() {
        PieceOrder order = new PieceOrder(8);
        Piece a = taken(order, 1, 5);
        Piece b = taken(order, 2, 4);
        Piece c = taken(order, 3, 1);
        ByteBuf bFrame = frame();
        ByteBuf cFrame = frame();
        b.write(bFrame);
        c.write(cFrame);
        order.done(c);
        order.done(b);
        order.done(a);
        // The cap is 7: a's 5 leave, b's 4 would make 9.
        assertThat(order.poll(0, 7)).isSameAs(a);
        assertThat(order.poll(5, 7)).as("b crosses the cap").isNull();
        assertThat(bFrame.refCnt()).isZero();
        assertThat(cFrame.refCnt()).isZero();
        assertThat(c.discarded).isTrue();
        assertThat(order.acceptsNew()).as("nothing new after the cap").isFalse();
        Piece again = order.take();
        assertThat(again).isSameAs(b);
        assertThat(again.exact).as("first now: counted from the exact count").isTrue();
        assertThat(again.results).isZero();
        assertThat(again.size).isEqualTo(1);
        assertThat(order.take()).isNull();
    }

    @Test
    void aPieceThatCountedPastTheCapIsSearchedAgainUnlessItsCountWasExact() {
        PieceOrder order = new PieceOrder(8);
        Piece a = taken(order, 1, 1);
        Piece b = taken(order, 2, 1);
        order.full(b);
        order.done(b);
        order.done(a);
        assertThat(order.poll(0, 10)).isSameAs(a);
        assertThat(order.poll(1, 10))
                .as("b's count was too low when it stopped")
                .isNull();
        Piece again = order.take();
        again.results = 10;
        order.full(again);
        assertThat(order.acceptsNew()).as("nothing new starts past the cap").isFalse();
        order.done(again);
        assertThat(order.poll(1, 10)).as("exact: its cut stands").isSameAs(again);
        assertThat(order.isEmpty()).isTrue();
    }

    @Test
    void workHandedOnGoesRightAfterItsPieceAndBeforeTheNext() {
        PieceOrder order = new PieceOrder(8);
        Piece a = taken(order, 1, 0);
        Piece b = taken(order, 5, 0);
        Piece rest = order.handOn(a);
        assertThat(order.handOn(a)).as("one piece takes all a hands on").isSameAs(rest);
        rest.add(0, 2, 100, 7);
        rest.add(0, 3, 0, 1);
        assertThat(order.take())
                .as("no task takes it while a's task still hands work on")
                .isNull();
        order.done(a);
        assertThat(order.take()).isSameAs(rest);
        order.done(b);
        order.done(rest);
        assertThat(order.poll(0, 100)).isSameAs(a);
        assertThat(order.poll(0, 100)).isSameAs(rest);
        assertThat(order.poll(0, 100)).isSameAs(b);
    }

    @Test
    void theWindowBoundsThePiecesHeld() {
        PieceOrder order = new PieceOrder(2);
        Piece a = taken(order, 1, 0);
        taken(order, 2, 0);
        assertThat(order.acceptsNew()).isFalse();
        order.done(a);
        order.poll(0, 100);
        assertThat(order.acceptsNew()).isTrue();
    }

    @Test
    void afterAPieceStoppedAtTheDeadlineNothingIsSent() {
        PieceOrder order = new PieceOrder(8);
        Piece a = taken(order, 1, 1);
        Piece b = taken(order, 2, 1);
        ByteBuf bFrame = frame();
        b.write(bFrame);
        a.truncated = true;
        order.done(b);
        order.done(a);
        assertThat(order.poll(0, 100)).isSameAs(a);
        assertThat(order.isEmpty()).isTrue();
        assertThat(bFrame.refCnt()).isZero();
    }

    @Test
    void aDroppedPieceBeingSearchedKeepsItsFramesForItsTask() {
        PieceOrder order = new PieceOrder(8);
        Piece a = taken(order, 1, 0);
        ByteBuf held = frame();
        a.write(held);
        order.dropAll();
        assertThat(a.discarded).isTrue();
        assertThat(held.refCnt()).as("its task releases it").isOne();
        assertThat(order.handOn(a)).isNull();
        a.clear();
        assertThat(held.refCnt()).isZero();
    }
}
