package dev.loci.ui.internal;

import dev.loci.server.Credential;
import io.javalin.http.HandlerType;
import java.util.Optional;

/**
 * Signing in and out, and the landing page at {@code /}. The login form takes a bearer token,
 * checks it as the API does, and opens a session that remembers the credential's id (never the
 * token); the next page load looks the credential up again, so a revoked token ends its sessions.
 */
public final class AuthPages {
  /** What the login template shows. */
  public record Login(String next, Optional<String> error, boolean credentialsConfigured) {}

  private final Web web;

  /** The pages on {@code web}. */
  public AuthPages(Web web) {
    this.web = web;
  }

  /** Registers {@code /}, {@code /ui/login} and {@code /ui/logout}. */
  public void register() {
    web.open(
        HandlerType.GET,
        "/",
        req -> req.page("landing.jte", req.chrome("Loci", "", Optional.empty()), ""));
    web.open(
        HandlerType.GET,
        "/ui/login",
        req ->
            req.page(
                "login.jte",
                req.chrome("Sign in", "login", Optional.empty()),
                new Login(
                    safeNext(req.query("next")),
                    Optional.empty(),
                    !web.access().credentials().isEmpty())));
    web.open(HandlerType.POST, "/ui/login", this::login);
    web.open(
        HandlerType.POST,
        "/ui/logout",
        req -> {
          web.sessions().logout(req.ctx());
          req.redirect("/ui/login");
        });
  }

  private void login(Req req) {
    String next = safeNext(req.form("next"));
    Optional<String> token = req.form("token");
    Optional<Credential> c = token.flatMap(t -> web.access().authenticate(t));
    if (c.isEmpty()) {
      String error =
          web.access().credentials().isEmpty()
              ? "This server has no credential configured: every page is open to you already."
              : token.isEmpty() ? "Enter a token." : "That token is not known to this server.";
      req.page(
          "login.jte",
          req.chrome("Sign in", "login", Optional.empty()),
          new Login(next, Optional.of(error), !web.access().credentials().isEmpty()));
      req.ctx().status(web.access().credentials().isEmpty() ? 400 : 401);
      return;
    }
    web.sessions().login(req.ctx(), c.get().id());
    req.redirect(next);
  }

  /** Only a path inside the UI may follow a login: no open redirect. */
  static String safeNext(Optional<String> next) {
    return next.filter(n -> n.startsWith("/ui") && !n.startsWith("//") && !n.contains("\\"))
        .filter(n -> n.chars().noneMatch(ch -> ch < 0x20))
        .orElse("/ui");
  }
}
