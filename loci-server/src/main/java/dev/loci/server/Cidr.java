package dev.loci.server;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A block of IPv4 or IPv6 addresses, written {@code 10.0.0.0/8}, {@code ::1/128}, or a single
 * address (a full-length prefix). An IPv4 block never matches an IPv6 address, except that
 * IPv4-mapped IPv6 addresses ({@code ::ffff:10.1.2.3}) are compared as the IPv4 address they hold.
 *
 * @param network the network address, its host bits zero
 * @param prefix the prefix length, 0 to 32 for IPv4 and 0 to 128 for IPv6
 */
public record Cidr(InetAddress network, int prefix) {
  private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

  /** Checks the prefix length against the address family. */
  public Cidr {
    Objects.requireNonNull(network, "network");
    int bits = network.getAddress().length * 8;
    if (prefix < 0 || prefix > bits) {
      throw new IllegalArgumentException(
          "expected a prefix length of 0 to " + bits + ", found " + prefix);
    }
  }

  /**
   * Parses {@code address/prefix} or a bare address.
   *
   * @throws IllegalArgumentException if the text is not an IP literal with a valid prefix
   */
  public static Cidr of(String text) {
    int slash = text.indexOf('/');
    String addr = slash < 0 ? text : text.substring(0, slash);
    InetAddress a =
        parseAddress(addr)
            .orElseThrow(
                () ->
                    new IllegalArgumentException(
                        "expected an IPv4 or IPv6 block such as 10.0.0.0/8 or fd00::/8, found '"
                            + text
                            + "'"));
    int bits = a.getAddress().length * 8;
    int prefix;
    try {
      prefix = slash < 0 ? bits : Integer.parseInt(text.substring(slash + 1));
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "expected a prefix length after '/', found '" + text + "'", e);
    }
    return new Cidr(mask(a, prefix), prefix);
  }

  /**
   * Parses an IP literal without ever asking DNS: dotted IPv4, or IPv6 with or without brackets.
   * Returns empty for anything else, host names included.
   */
  public static Optional<InetAddress> parseAddress(String text) {
    String t = text.strip();
    if (t.startsWith("[") && t.endsWith("]")) {
      t = t.substring(1, t.length() - 1);
    }
    boolean v4 = IPV4.matcher(t).matches();
    if (!v4 && (t.indexOf(':') < 0 || !t.matches("[0-9A-Fa-f:.]+"))) {
      return Optional.empty(); // only literals: getByName would look a host name up
    }
    try {
      return Optional.of(unmap(InetAddress.getByName(t)));
    } catch (UnknownHostException e) {
      return Optional.empty();
    }
  }

  /** Returns true if {@code address} lies in this block. */
  public boolean contains(InetAddress address) {
    byte[] a = unmap(address).getAddress();
    byte[] n = network.getAddress();
    if (a.length != n.length) {
      return false;
    }
    return java.util.Arrays.equals(mask(a, prefix), n);
  }

  @Override
  public String toString() {
    return network.getHostAddress() + "/" + prefix;
  }

  private static InetAddress unmap(InetAddress a) {
    byte[] b = a.getAddress();
    if (b.length == 16) {
      boolean mapped = b[10] == (byte) 0xff && b[11] == (byte) 0xff;
      for (int i = 0; i < 10 && mapped; i++) {
        mapped = b[i] == 0;
      }
      if (mapped) {
        try {
          return InetAddress.getByAddress(java.util.Arrays.copyOfRange(b, 12, 16));
        } catch (UnknownHostException e) {
          throw new IllegalStateException(e);
        }
      }
    }
    return a;
  }

  private static InetAddress mask(InetAddress a, int prefix) {
    try {
      return InetAddress.getByAddress(mask(a.getAddress(), prefix));
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }

  private static byte[] mask(byte[] address, int prefix) {
    byte[] out = address.clone();
    for (int i = 0; i < out.length; i++) {
      int keep = Math.max(0, Math.min(8, prefix - i * 8));
      out[i] = (byte) (out[i] & (0xff << (8 - keep)));
    }
    return out;
  }
}
