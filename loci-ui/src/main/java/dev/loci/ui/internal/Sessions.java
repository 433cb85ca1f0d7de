package dev.loci.ui.internal;

import io.javalin.http.Context;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Browser sessions: a random id in an {@code HttpOnly}, {@code SameSite=Strict} cookie ({@code
 * Secure} when served over TLS), holding the id of the credential the user logged in with (never
 * the token) and the session's CSRF token. Sessions live in memory: a restart logs everyone out.
 * Logging in replaces the session id, so an id planted before login is worthless. Thread-safe.
 */
public final class Sessions {
  /** The cookie's name. */
  public static final String COOKIE = "loci_ui";

  private static final int MAX_SESSIONS = 10_000;
  private static final SecureRandom RANDOM = new SecureRandom();

  private final Duration ttl;
  private final ConcurrentHashMap<String, Session> sessions = new ConcurrentHashMap<>();

  /**
   * One session.
   *
   * @param id the cookie value
   * @param csrf the token every form and htmx request must echo
   * @param credentialId the id of the credential logged in with, empty before login
   * @param expiresNanos when it expires, on {@link System#nanoTime()}'s clock
   */
  public record Session(String id, String csrf, Optional<String> credentialId, long expiresNanos) {}

  /** Sessions that expire {@code ttl} after their last use. */
  public Sessions(Duration ttl) {
    this.ttl = ttl;
  }

  /** The request's session, created (with a cookie) if it has none or an expired one. */
  public Session ensure(Context ctx) {
    String id = ctx.cookie(COOKIE);
    long now = System.nanoTime();
    if (id != null) {
      Session s = sessions.get(id);
      if (s != null && s.expiresNanos() - now > 0) {
        Session touched = new Session(s.id(), s.csrf(), s.credentialId(), now + ttl.toNanos());
        sessions.put(id, touched);
        return touched;
      }
      sessions.remove(id);
    }
    return open(ctx, Optional.empty());
  }

  /** Starts a new session for {@code credentialId}, dropping the request's old one. */
  public Session login(Context ctx, String credentialId) {
    drop(ctx);
    return open(ctx, Optional.of(credentialId));
  }

  /** Ends the request's session and starts an anonymous one. */
  public Session logout(Context ctx) {
    drop(ctx);
    return open(ctx, Optional.empty());
  }

  /** Whether {@code presented} is the session's CSRF token (constant-time). */
  public static boolean csrfMatches(Session s, String presented) {
    return presented != null && MessageDigest.isEqual(s.csrf().getBytes(), presented.getBytes());
  }

  private void drop(Context ctx) {
    String id = ctx.cookie(COOKIE);
    if (id != null) {
      sessions.remove(id);
    }
  }

  private Session open(Context ctx, Optional<String> credentialId) {
    long now = System.nanoTime();
    if (sessions.size() >= MAX_SESSIONS) {
      sessions.values().removeIf(s -> s.expiresNanos() - now <= 0);
      if (sessions.size() >= MAX_SESSIONS) {
        sessions.values().stream()
            .filter(s -> s.credentialId().isEmpty())
            .limit(MAX_SESSIONS / 10)
            .toList()
            .forEach(s -> sessions.remove(s.id()));
      }
    }
    Session s = new Session(random(), random(), credentialId, now + ttl.toNanos());
    sessions.put(s.id(), s);
    boolean tls = "https".equalsIgnoreCase(ctx.scheme());
    ctx.header(
        "Set-Cookie",
        COOKIE
            + "="
            + s.id()
            + "; Path=/; HttpOnly; SameSite=Strict; Max-Age="
            + ttl.toSeconds()
            + (tls ? "; Secure" : ""));
    return s;
  }

  private static String random() {
    byte[] b = new byte[24];
    RANDOM.nextBytes(b);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(b);
  }
}
