package dev.loci.server.internal;

import dev.loci.server.Cidr;
import dev.loci.server.Credential;
import dev.loci.server.ServerConfig;
import dev.loci.server.spi.HttpProblem;
import java.net.InetAddress;
import java.security.MessageDigest;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The checks that come before any route: who the client is (honouring {@code X-Forwarded-For} only
 * from trusted proxies), whether its address is allowed, which credential it presents, and whether
 * it is within its rate. Thread-safe.
 */
final class Guard {
  private final ServerConfig config;
  private volatile Keys keys;
  private final ConcurrentHashMap<String, TokenBucket> buckets = new ConcurrentHashMap<>();

  /** The credentials in force and their hashes, replaced together. */
  private record Keys(List<Credential> credentials, List<byte[]> hashes) {
    static Keys of(List<Credential> credentials) {
      return new Keys(
          List.copyOf(credentials), credentials.stream().map(Guard::hashBytes).toList());
    }
  }

  Guard(ServerConfig config) {
    this.config = config;
    this.keys = Keys.of(config.credentials());
  }

  /** The credentials in force. */
  List<Credential> credentials() {
    return keys.credentials();
  }

  /**
   * Replaces the credentials in force; requests that start afterwards see only the new ones.
   *
   * @throws IllegalArgumentException if {@code credentials} is empty while some are in force: that
   *     would open the server to every client, which only a restart may do
   */
  void credentials(List<Credential> credentials) {
    if (credentials.isEmpty() && !keys.credentials().isEmpty()) {
      throw new IllegalArgumentException(
          "the new configuration has no credential; a running server does not drop its last"
              + " credential (that would let every client in). Restart it to serve without one");
    }
    keys = Keys.of(credentials);
  }

  private static byte[] hashBytes(Credential c) {
    return java.util.HexFormat.of().parseHex(c.sha256());
  }

  /**
   * The client's address. The peer itself, unless it is a trusted proxy: then {@code
   * X-Forwarded-For} is read right to left and the first address that is not a trusted proxy is the
   * client (the left part of the header is whatever the client wrote, so it is not believed). Empty
   * if the header holds something that is not an IP address where the client should be.
   */
  Optional<InetAddress> client(InetAddress peer, List<String> forwardedFor) {
    if (forwardedFor.isEmpty() || !trusted(peer)) {
      return Optional.of(peer);
    }
    InetAddress last = peer;
    for (int h = forwardedFor.size() - 1; h >= 0; h--) {
      String[] hops = forwardedFor.get(h).split(",");
      for (int i = hops.length - 1; i >= 0; i--) {
        if (hops[i].isBlank()) {
          continue;
        }
        Optional<InetAddress> hop = Cidr.parseAddress(stripPort(hops[i].strip()));
        if (hop.isEmpty()) {
          return Optional.empty();
        }
        last = hop.get();
        if (!trusted(last)) {
          return hop;
        }
      }
    }
    return Optional.of(last); // every hop is a trusted proxy: the left-most is the client
  }

  private static String stripPort(String hop) {
    if (hop.startsWith("[")) {
      int close = hop.indexOf(']');
      return close < 0 ? hop : hop.substring(0, close + 1);
    }
    int colon = hop.indexOf(':');
    return colon >= 0 && hop.indexOf(':', colon + 1) < 0 ? hop.substring(0, colon) : hop;
  }

  private boolean trusted(InetAddress a) {
    return config.trustedProxies().stream().anyMatch(c -> c.contains(a));
  }

  /**
   * Checks the allowlist.
   *
   * @throws HttpProblem 403 if an allowlist is configured and the client is not on it
   */
  void checkAllowed(Optional<InetAddress> client) {
    if (config.allowedIps().isEmpty()) {
      return;
    }
    if (client.isEmpty() || config.allowedIps().stream().noneMatch(c -> c.contains(client.get()))) {
      throw new HttpProblem(
          403,
          "address-not-allowed",
          "Address not allowed",
          "the client address "
              + client.map(InetAddress::getHostAddress).orElse("(unreadable X-Forwarded-For)")
              + " is not on the server's allowlist",
          Optional.empty());
    }
  }

  /**
   * Finds the credential of an {@code Authorization: Bearer} header. Every stored hash is compared
   * in constant time, and all of them are compared whatever matches, so the time taken does not
   * tell which token came close.
   *
   * @throws HttpProblem 401 if credentials are configured and the header is missing or unknown
   */
  Principal authenticate(Optional<String> authorization) {
    Keys keys = this.keys;
    List<byte[]> hashes = keys.hashes();
    if (hashes.isEmpty()) {
      return Principal.LOCAL;
    }
    if (authorization.isEmpty()) {
      throw unauthorized("missing credential: send 'Authorization: Bearer <token>'");
    }
    String h = authorization.get().strip();
    if (!h.toLowerCase(Locale.ROOT).startsWith("bearer ")) {
      throw unauthorized("expected 'Authorization: Bearer <token>'");
    }
    byte[] presented = Credential.hash(h.substring("bearer ".length()).strip());
    int match = -1;
    for (int i = 0; i < hashes.size(); i++) {
      if (MessageDigest.isEqual(presented, hashes.get(i))) {
        match = i;
      }
    }
    if (match < 0) {
      throw unauthorized("unknown token");
    }
    return new Principal(Optional.of(keys.credentials().get(match)));
  }

  static HttpProblem unauthorized(String detail) {
    return new HttpProblem(401, "unauthorized", "Unauthorized", detail, Optional.empty());
  }

  /**
   * Takes one request from the caller's bucket.
   *
   * @throws HttpProblem 429 if the bucket is empty; {@link #retryAfterSeconds} says when to retry
   */
  void checkRate(Principal p, Optional<InetAddress> client) {
    if (config.rateLimit().isEmpty()) {
      return;
    }
    ServerConfig.RateLimit limit = config.rateLimit().get();
    String key =
        p.credential()
            .map(c -> "token:" + c.id())
            .orElse("ip:" + client.map(InetAddress::getHostAddress).orElse("?"));
    TokenBucket bucket = buckets.computeIfAbsent(key, k -> new TokenBucket(limit));
    if (!bucket.tryTake(System.nanoTime())) {
      throw new HttpProblem(
          429,
          "rate-limited",
          "Too many requests",
          "over the rate limit of "
              + limit.perSecond()
              + " requests per second (burst "
              + limit.burst()
              + "); retry after "
              + retryAfterSeconds()
              + " s",
          Optional.empty());
    }
  }

  /** Whole seconds until one request's worth of tokens has refilled, at least 1. */
  long retryAfterSeconds() {
    return config.rateLimit().map(l -> Math.max(1, (long) Math.ceil(1 / l.perSecond()))).orElse(1L);
  }

  /** A token bucket: {@code burst} tokens at most, refilled continuously at the rate. */
  private static final class TokenBucket {
    private final double perNano;
    private final double capacity;
    private double tokens;
    private long last;

    TokenBucket(ServerConfig.RateLimit limit) {
      this.perNano = limit.perSecond() / 1e9;
      this.capacity = limit.burst();
      this.tokens = capacity;
      this.last = System.nanoTime();
    }

    synchronized boolean tryTake(long now) {
      tokens = Math.min(capacity, tokens + (now - last) * perNano);
      last = now;
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      return false;
    }
  }
}
