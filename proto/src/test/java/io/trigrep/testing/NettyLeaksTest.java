package io.trigrep.testing;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.RepeatedTest;

/** The check run after each test fails on a buffer dropped unreleased, and passes once it is reported. */
class NettyLeaksTest {
    @RepeatedTest(20)
    void aBufferDroppedUnreleasedFailsTheCheck() {
        leak();
        assertThatThrownBy(() -> NettyLeaks.check("the leaking test"))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("leaked by the leaking test")
                .hasMessageContaining("LEAK");
        assertThatCode(() -> NettyLeaks.check("the next test")).doesNotThrowAnyException();
    }

    @RepeatedTest(20)
    void releasedBuffersPassTheCheck() {
        ByteBuf buffer = ByteBufAllocator.DEFAULT.buffer(64);
        buffer.writeLong(1);
        buffer.release();
        assertThatCode(() -> NettyLeaks.check("a clean test")).doesNotThrowAnyException();
    }

    private static int leaks;

    /** A buffer dropped unreleased, with a hint of its own: Netty reports a leak's records once. */
    private static void leak() {
        ByteBuf dropped = ByteBufAllocator.DEFAULT.buffer(64);
        dropped.touch("leak " + ++leaks);
        dropped.writeLong(42);
    }
}
