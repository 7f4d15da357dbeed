package io.trigrep.frontend.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import org.junit.jupiter.api.Test;

/** Issue 15: whose request it is, for the per-client share: X-Forwarded-For believed only from trusted proxies, read from the right. */
class ClientAddressTest {
    static final InetSocketAddress PROXY = new InetSocketAddress("10.1.2.3", 40000);
    static final InetSocketAddress STRANGER = new InetSocketAddress("192.0.2.9", 40000);

    @Test
    void theHeaderIsIgnoredUnlessThePeerIsATrustedProxy() {
        ClientAddress clients = ClientAddress.parse("10.0.0.0/8, ::1");
        assertThat(clients.of(STRANGER, "203.0.113.7")).isEqualTo("192.0.2.9");
        assertThat(clients.of(PROXY, null)).isEqualTo("10.1.2.3");
        assertThat(clients.of(PROXY, "203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(ClientAddress.parse("").of(PROXY, "203.0.113.7")).isEqualTo("10.1.2.3");
    }

    @Test
    void theRightmostAddressThatIsNoTrustedProxyIsTheClient() {
        ClientAddress clients = ClientAddress.parse("10.0.0.0/8");
        // What the client wrote itself (left) is never believed; what each trusted proxy appended is.
        assertThat(clients.of(PROXY, "198.51.100.1, 203.0.113.7")).isEqualTo("203.0.113.7");
        assertThat(clients.of(PROXY, "198.51.100.1, 203.0.113.7, 10.9.9.9")).isEqualTo("203.0.113.7");
        assertThat(clients.of(PROXY, "10.9.9.9")).isEqualTo("10.9.9.9");
        // One client, one key, however its address is spelt.
        assertThat(clients.of(PROXY, "2001:db8::0:1")).isEqualTo(clients.of(PROXY, "2001:DB8::1"));
    }

    @Test
    void blocksMatchByTheirPrefix() {
        ClientAddress.Cidr block = ClientAddress.Cidr.parse("172.16.0.0/12");
        assertThat(block.contains(new byte[] {(byte) 172, 31, (byte) 255, 1})).isTrue();
        assertThat(block.contains(new byte[] {(byte) 172, 32, 0, 1})).isFalse();
        assertThat(block.contains(new byte[16])).isFalse();
        assertThatThrownBy(() -> ClientAddress.Cidr.parse("proxy.example")).hasMessageContaining("IP address or CIDR");
        assertThatThrownBy(() -> ClientAddress.Cidr.parse("10.0.0.0/33")).hasMessageContaining("prefix length");
    }
}
