package io.trigrep.indexer.segments;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ServingBackendsTest {
    @TempDir
    Path root;

    @Test
    void readsWhatEachBackendWrote() throws Exception {
        ServingBackends.write(root, "a-7001-1", 3, "10.0.0.1:7001");
        ServingBackends.write(root, "b-7001-2", 4, "10.0.0.2:7001");
        ServingBackends.write(root, "a-7001-1", 5, "10.0.0.1:7001");
        assertThat(ServingBackends.alive(root, Instant.now()))
                .containsExactlyInAnyOrder(
                        new ServingBackends.Entry("a-7001-1", 5, "10.0.0.1:7001"),
                        new ServingBackends.Entry("b-7001-2", 4, "10.0.0.2:7001"));
        ServingBackends.remove(root, "b-7001-2");
        assertThat(ServingBackends.alive(root, Instant.now()))
                .extracting(ServingBackends.Entry::name)
                .containsExactly("a-7001-1");
    }

    @Test
    void skipsStaleFilesJunkAndTemporaries() throws Exception {
        ServingBackends.write(root, "dead", 1, "h:1");
        Files.setLastModifiedTime(
                ServingBackends.folder(root).resolve("dead"),
                FileTime.from(Instant.now().minusSeconds(60)));
        Files.writeString(ServingBackends.folder(root).resolve("junk"), "generation x\naddress h:1\n");
        Files.writeString(ServingBackends.folder(root).resolve("short"), "generation 4\n");
        Files.writeString(ServingBackends.folder(root).resolve(".live.tmp"), "generation 1\naddress h:1\n");
        ServingBackends.write(root, "live", 2, "h:2");
        assertThat(ServingBackends.alive(root, Instant.now()))
                .containsExactly(new ServingBackends.Entry("live", 2, "h:2"));
    }

    @Test
    void refusesANameThatIsNotAPlainFileName() {
        assertThatThrownBy(() -> ServingBackends.write(root, "../x", 1, "h:1"))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ServingBackends.write(root, ".hidden", 1, "h:1"))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void awaitNamesTheBackendsBehindAfterTheTimeout() throws Exception {
        ServingBackends.write(root, "ahead", 8, "h:1");
        ServingBackends.write(root, "behind", 7, "h:2");
        assertThat(ServingBackends.await(root, 8, Duration.ofMillis(50)))
                .containsExactly(new ServingBackends.Entry("behind", 7, "h:2"));
        assertThat(ServingBackends.await(root, 7, Duration.ZERO)).isEmpty();
    }

    @Test
    void awaitReturnsOnceEveryBackendServesTheGeneration() throws Exception {
        ServingBackends.write(root, "one", 7, "h:1");
        CompletableFuture<Integer> behind = CompletableFuture.supplyAsync(() -> {
            try {
                return ServingBackends.await(root, 8, Duration.ofMinutes(1)).size();
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        });
        ServingBackends.write(root, "one", 8, "h:1");
        assertThat(behind.get(30, TimeUnit.SECONDS)).isZero();
    }

    @Test
    void anIndexNobodyServesIsNotWaitedFor() throws Exception {
        assertThat(ServingBackends.await(root, 8, Duration.ofMinutes(1))).isEmpty();
    }
}
