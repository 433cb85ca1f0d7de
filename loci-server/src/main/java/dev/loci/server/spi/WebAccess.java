package dev.loci.server.spi;

import dev.loci.server.Credential;
import io.javalin.http.Context;
import java.util.List;
import java.util.Optional;

/**
 * What the server lends a {@link WebMount} to enforce its rules on pages: the credentials in force
 * (they change when the configuration file does), token checks in constant time, the client address
 * allowlist, and the route name metrics and the access log record. Thread-safe.
 */
public interface WebAccess {
  /** The credentials in force now; empty when the server serves the local user (loopback only). */
  List<Credential> credentials();

  /**
   * The credential {@code token} belongs to, compared in constant time against every credential in
   * force; empty if none.
   */
  Optional<Credential> authenticate(String token);

  /**
   * Checks the client address of {@code ctx} against the allowlist (honouring {@code
   * X-Forwarded-For} only from trusted proxies).
   *
   * @throws HttpProblem 403 if an allowlist is configured and the client is not on it
   */
  void checkClient(Context ctx);

  /**
   * Takes one request from the rate-limit bucket of {@code credential} (or of the client address
   * when empty), as the API does for its requests.
   *
   * @throws HttpProblem 429 if a rate limit is configured and the bucket is empty
   */
  void checkRate(Context ctx, Optional<Credential> credential);

  /** The server's metrics in the Prometheus text format, as {@code /metrics} serves them. */
  String metrics();

  /** Names the route template {@code ctx} is served by, for metrics and the access log. */
  void route(Context ctx, String template);
}
