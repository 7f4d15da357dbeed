package io.trigrep.proto;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/** Runs the reference implementation's {@code capnp} tool (Debian package capnproto) on trigrep.capnp. */
final class CapnpTool {
    static final Path SCHEMA = Path.of("src/main/capnp/trigrep.capnp").toAbsolutePath();

    private CapnpTool() {}

    record Output(byte[] stdout, String stderr, int exit) {
        String text() {
            return new String(stdout, StandardCharsets.UTF_8);
        }
    }

    static Output run(byte[] stdin, String... args) throws IOException, InterruptedException {
        if (!Files.isRegularFile(SCHEMA)) {
            throw new IllegalStateException("schema not found at " + SCHEMA + "; run the tests from the proto module");
        }
        List<String> command = new ArrayList<>();
        command.add("capnp");
        command.addAll(List.of(args));
        Process process;
        try {
            process = new ProcessBuilder(command)
                    .directory(SCHEMA.getParent().toFile())
                    .start();
        } catch (IOException e) {
            throw new IllegalStateException(
                    "the capnp tool is needed (Debian package capnproto; .ci/run installs it): " + e.getMessage(), e);
        }
        CompletableFuture<byte[]> out = CompletableFuture.supplyAsync(() -> drain(process.getInputStream()));
        CompletableFuture<byte[]> err = CompletableFuture.supplyAsync(() -> drain(process.getErrorStream()));
        try (var in = process.getOutputStream()) {
            in.write(stdin);
        }
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IllegalStateException("capnp " + String.join(" ", args) + " did not finish in 30 s");
        }
        return new Output(out.join(), new String(err.join(), StandardCharsets.UTF_8), process.exitValue());
    }

    private static byte[] drain(InputStream in) {
        try (in) {
            ByteArrayOutputStream buffer = new ByteArrayOutputStream();
            in.transferTo(buffer);
            return buffer.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
