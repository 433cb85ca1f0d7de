package dev.loci.server;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything the server is configured with; immutable. Read from {@code loci.toml} by {@link
 * ConfigFile#load}; {@link #defaults()} is what an absent file means: 127.0.0.1:7070, no
 * credentials (so only loopback may be bound, and every request is allowed), no allowlist, 16 MiB
 * body cap, no rate limit.
 *
 * @param host the address to bind
 * @param port the port to bind, 0 for any free port
 * @param credentials the bearer tokens accepted; empty means no credential is required, which the
 *     server only allows on a loopback address
 * @param allowedIps if not empty, only clients in one of these blocks may call anything but {@code
 *     /health}
 * @param trustedProxies peers whose {@code X-Forwarded-For} header is believed
 * @param bodyLimits the request body caps
 * @param rateLimit the per-credential request rate limit, if any
 * @param limits what one request may ask beyond its body size
 */
public record ServerConfig(
    String host,
    int port,
    List<Credential> credentials,
    List<Cidr> allowedIps,
    List<Cidr> trustedProxies,
    BodyLimits bodyLimits,
    Optional<RateLimit> rateLimit,
    RequestLimits limits) {

  /** The address bound when none is configured. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  /** The port bound when none is configured. */
  public static final int DEFAULT_PORT = 7070;

  /** Checks the fields and copies the lists. */
  public ServerConfig {
    Objects.requireNonNull(host, "host");
    if (port < 0 || port > 65_535) {
      throw new IllegalArgumentException("port: expected 0 to 65535, found " + port);
    }
    credentials = List.copyOf(credentials);
    allowedIps = List.copyOf(allowedIps);
    trustedProxies = List.copyOf(trustedProxies);
    Objects.requireNonNull(bodyLimits, "bodyLimits");
    Objects.requireNonNull(rateLimit, "rateLimit");
    Objects.requireNonNull(limits, "limits");
    if (credentials.stream().map(Credential::id).distinct().count() != credentials.size()) {
      throw new IllegalArgumentException("two tokens have the same id");
    }
    java.util.Map<String, String> byHash = new java.util.HashMap<>();
    for (Credential c : credentials) {
      String other = byHash.putIfAbsent(c.sha256(), c.id());
      if (other != null) {
        // one token would authenticate as whichever entry came first: one entry could silently
        // give the other's holder another role or scope
        throw new IllegalArgumentException(
            "tokens " + other + " and " + c.id() + " have the same sha256: one token, two entries");
      }
    }
  }

  /** The configuration of an absent {@code loci.toml}. */
  public static ServerConfig defaults() {
    return new ServerConfig(
        DEFAULT_HOST,
        DEFAULT_PORT,
        List.of(),
        List.of(),
        List.of(),
        BodyLimits.defaults(),
        Optional.empty(),
        RequestLimits.defaults());
  }

  /** This configuration bound to another address. */
  public ServerConfig withHost(String host) {
    return new ServerConfig(
        host, port, credentials, allowedIps, trustedProxies, bodyLimits, rateLimit, limits);
  }

  /** This configuration bound to another port. */
  public ServerConfig withPort(int port) {
    return new ServerConfig(
        host, port, credentials, allowedIps, trustedProxies, bodyLimits, rateLimit, limits);
  }

  /** This configuration with other credentials. */
  public ServerConfig withCredentials(List<Credential> credentials) {
    return new ServerConfig(
        host, port, credentials, allowedIps, trustedProxies, bodyLimits, rateLimit, limits);
  }

  /** This configuration with another allowlist and other trusted proxies. */
  public ServerConfig withNetwork(List<Cidr> allowedIps, List<Cidr> trustedProxies) {
    return new ServerConfig(
        host, port, credentials, allowedIps, trustedProxies, bodyLimits, rateLimit, limits);
  }

  /** This configuration with other body caps. */
  public ServerConfig withBodyLimits(BodyLimits bodyLimits) {
    return new ServerConfig(
        host, port, credentials, allowedIps, trustedProxies, bodyLimits, rateLimit, limits);
  }

  /** This configuration with other request limits. */
  public ServerConfig withLimits(RequestLimits limits) {
    return new ServerConfig(
        host, port, credentials, allowedIps, trustedProxies, bodyLimits, rateLimit, limits);
  }

  /** This configuration with a rate limit. */
  public ServerConfig withRateLimit(RateLimit rateLimit) {
    return new ServerConfig(
        host,
        port,
        credentials,
        allowedIps,
        trustedProxies,
        bodyLimits,
        Optional.of(rateLimit),
        limits);
  }

  /**
   * Request body caps (ADR-002): one default, overridden for paths that start with a configured
   * prefix; the longest matching prefix wins.
   *
   * @param defaultBytes the cap for paths no prefix matches
   * @param byPrefix caps by path prefix
   */
  public record BodyLimits(long defaultBytes, Map<String, Long> byPrefix) {
    /** 16 MiB, the default cap. */
    public static final long DEFAULT_BYTES = 16L * 1024 * 1024;

    /** Checks the caps are positive and copies the map, longest prefix first. */
    public BodyLimits {
      checkPositive("body limit", defaultBytes);
      Map<String, Long> sorted = new LinkedHashMap<>();
      byPrefix.entrySet().stream()
          .sorted(
              Comparator.comparing((Map.Entry<String, Long> e) -> e.getKey().length()).reversed())
          .forEach(
              e -> {
                if (!e.getKey().startsWith("/")) {
                  throw new IllegalArgumentException(
                      "body limit prefix: expected a path starting with '/', found '"
                          + e.getKey()
                          + "'");
                }
                checkPositive("body limit for " + e.getKey(), e.getValue());
                sorted.put(e.getKey(), e.getValue());
              });
      byPrefix = java.util.Collections.unmodifiableMap(sorted);
    }

    /** 16 MiB everywhere. */
    public static BodyLimits defaults() {
      return new BodyLimits(DEFAULT_BYTES, Map.of());
    }

    /** The cap for a request to {@code path}. */
    public long limitFor(String path) {
      for (Map.Entry<String, Long> e : byPrefix.entrySet()) {
        if (path.startsWith(e.getKey())) {
          return e.getValue();
        }
      }
      return defaultBytes;
    }

    private static void checkPositive(String what, long bytes) {
      if (bytes < 1) {
        throw new IllegalArgumentException(what + ": expected at least 1 byte, found " + bytes);
      }
    }
  }

  /**
   * A token bucket per credential (per client address when no credential is configured): it holds
   * at most {@code burst} requests and refills at {@code perSecond}.
   *
   * @param perSecond the sustained request rate
   * @param burst the most requests allowed at once
   */
  public record RateLimit(double perSecond, int burst) {
    /** Checks both are positive. */
    public RateLimit {
      if (!(perSecond > 0) || Double.isInfinite(perSecond)) {
        throw new IllegalArgumentException(
            "rate_limit.per_second: expected a positive number, found " + perSecond);
      }
      if (burst < 1) {
        throw new IllegalArgumentException("rate_limit.burst: expected at least 1, found " + burst);
      }
    }
  }
}
