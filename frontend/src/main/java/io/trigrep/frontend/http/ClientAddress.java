package io.trigrep.frontend.http;

import io.netty.util.NetUtil;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Whose request this is, for the per-client share of {@link io.trigrep.frontend.query.Admission}: the peer's address, or,
 * when the peer is one of the trusted proxies ({@code --trusted-proxies CIDR,...}), the address
 * its {@code X-Forwarded-For} names. That header is read from the right: each proxy appends the
 * address it received from, so the rightmost entry that is not itself a trusted proxy is the
 * client; entries to its left are whatever the client wrote, and are never believed. From a peer
 * that is not trusted the header is ignored: anyone can send it.
 */
final class ClientAddress {
    /** An address block: {@code bits} leading bits of {@code prefix} (4 bytes for IPv4, 16 for IPv6). */
    @SuppressWarnings("ArrayRecordComponent") // parallel arrays by design: a carrier, never compared
    record Cidr(byte[] prefix, int bits) {
        static Cidr parse(String text) {
            String t = text.strip();
            int slash = t.indexOf('/');
            byte[] address = NetUtil.createByteArrayFromIpAddressString(slash < 0 ? t : t.substring(0, slash));
            if (address == null) {
                throw new IllegalArgumentException(
                        "a trusted proxy must be an IP address or CIDR block (10.0.0.0/8, ::1), got '" + text + "'");
            }
            int bits = address.length * 8;
            if (slash >= 0) {
                try {
                    bits = Integer.parseInt(t.substring(slash + 1));
                } catch (NumberFormatException e) {
                    bits = -1;
                }
                if (bits < 0 || bits > address.length * 8) {
                    throw new IllegalArgumentException(
                            "prefix length must be in [0, " + address.length * 8 + "], got '" + text + "'");
                }
            }
            return new Cidr(address, bits);
        }

        boolean contains(byte[] address) {
            if (address == null || address.length != prefix.length) {
                return false;
            }
            int full = bits / 8;
            for (int i = 0; i < full; i++) {
                if (address[i] != prefix[i]) {
                    return false;
                }
            }
            int rest = bits % 8;
            return rest == 0 || ((address[full] ^ prefix[full]) & (0xff << (8 - rest)) & 0xff) == 0;
        }

        @Override
        public String toString() {
            return NetUtil.bytesToIpAddress(prefix) + "/" + bits;
        }
    }

    private final List<Cidr> trusted;

    ClientAddress(List<Cidr> trusted) {
        this.trusted = List.copyOf(trusted);
    }

    /** {@code --trusted-proxies}' value: comma-separated addresses and blocks; empty trusts none. */
    static ClientAddress parse(String proxies) {
        List<Cidr> blocks = new ArrayList<>();
        if (proxies != null) {
            for (String p : proxies.split(",", -1)) {
                if (!p.isBlank()) {
                    blocks.add(Cidr.parse(p));
                }
            }
        }
        return new ClientAddress(blocks);
    }

    /** The client of a request from {@code peer} with this {@code X-Forwarded-For} (may be null). */
    String of(SocketAddress peer, String forwardedFor) {
        byte[] peerBytes = peer instanceof InetSocketAddress a && a.getAddress() != null
                ? a.getAddress().getAddress()
                : null;
        String client = peerBytes != null ? NetUtil.bytesToIpAddress(peerBytes) : String.valueOf(peer);
        if (forwardedFor == null || !trusted(peerBytes)) {
            return client;
        }
        String[] hops = forwardedFor.split(",", -1);
        for (int i = hops.length - 1; i >= 0; i--) {
            String hop = hops[i].strip();
            if (hop.isEmpty()) {
                continue;
            }
            byte[] bytes = NetUtil.createByteArrayFromIpAddressString(hop);
            if (bytes == null) {
                // Not an address (a name, "unknown", garbage): the proxy saw this; a key of its own, bounded in length.
                return hop.length() > 64 ? hop.substring(0, 64) : hop;
            }
            client = NetUtil.bytesToIpAddress(bytes);
            if (!trusted(bytes)) {
                return client;
            }
        }
        return client; // every hop a trusted proxy: the leftmost one
    }

    private boolean trusted(byte[] address) {
        for (Cidr c : trusted) {
            if (c.contains(address)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public String toString() {
        return Arrays.toString(trusted.toArray());
    }
}
