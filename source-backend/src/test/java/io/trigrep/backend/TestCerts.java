package io.trigrep.backend;

import io.trigrep.proto.Tls;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Certificates made at test time by the script operators use, {@code deploy/make-certs.sh}
 * (openssl): a CA, a backend certificate that names localhost and 127.0.0.1, and a frontend
 * client certificate. Two calls into two folders make two unrelated CAs.
 */
public record TestCerts(Path dir) {
    /** Runs the script into {@code dir}; fails with its output when it fails. */
    public static TestCerts make(Path dir) throws IOException, InterruptedException {
        Path script = Path.of(System.getProperty("user.dir"))
                .resolve("../deploy/make-certs.sh")
                .normalize();
        Process p = new ProcessBuilder("bash", script.toString(), dir.toString())
                .redirectErrorStream(true)
                .start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("make-certs.sh took over 60 s");
        }
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AssertionError("make-certs.sh exited with " + p.exitValue() + ": " + output);
        }
        return new TestCerts(dir);
    }

    public Path ca() {
        return dir.resolve("ca.crt");
    }

    public Path backendCert() {
        return dir.resolve("backend.crt");
    }

    public Path backendKey() {
        return dir.resolve("backend.key");
    }

    public Path frontendCert() {
        return dir.resolve("frontend.crt");
    }

    public Path frontendKey() {
        return dir.resolve("frontend.key");
    }

    /** What a backend serves with. */
    public Tls backend() {
        return Tls.server(backendCert(), backendKey(), ca());
    }

    /** What a frontend connects with, checking that the backend's certificate names the host dialled. */
    public Tls frontend() {
        return Tls.client(frontendCert(), frontendKey(), ca(), true);
    }
}
