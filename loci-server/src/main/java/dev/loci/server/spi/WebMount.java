package dev.loci.server.spi;

import io.javalin.Javalin;

/**
 * Pages served beside the API by the same server (the web UI): handlers registered directly on the
 * server's Javalin application, which authenticate their own requests (a session cookie made from a
 * bearer token) through {@link WebAccess}, so they obey the same credentials, roles, namespace
 * grants and allowlist as the API. Implementations are thread-safe once mounted.
 */
@FunctionalInterface
public interface WebMount {
  /** Registers the handlers on {@code app}; called once, before the server starts. */
  void mount(Javalin app, WebAccess access);
}
