package dev.loci.ui.internal;

import dev.loci.ConflictException;
import dev.loci.InvalidRequestException;
import dev.loci.LociException;
import dev.loci.NotFoundException;
import dev.loci.server.Credential;
import dev.loci.server.Role;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.WebAccess;
import gg.jte.TemplateEngine;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Optional;

/**
 * Registers pages and runs the checks every page shares, in order: client allowlist, security
 * headers (a strict Content-Security-Policy: scripts and styles only from Loci itself, no inline
 * script), the session, who is viewing (a login is required once credentials are configured), the
 * server's rate limit (per credential, else per client address: it throttles login attempts), the
 * CSRF token of every POST, and the role the page requires. A failure renders an error page with
 * the status the API would give. Thread-safe.
 */
public final class Web {
  /** The Content-Security-Policy of every page. */
  public static final String CSP =
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
          + " connect-src 'self'; font-src 'self'; form-action 'self'; frame-ancestors 'none';"
          + " base-uri 'none'";

  /** The most bytes a form may send. */
  static final long FORM_LIMIT = 64 * 1024;

  /** Serves one page request that passed the checks. */
  @FunctionalInterface
  public interface Page {
    /** Serves it; throw {@link PageProblem} or a {@link LociException} for failures. */
    void serve(Req req) throws Exception;
  }

  private final Javalin app;
  private final WebAccess access;
  private final Sessions sessions;
  private final TemplateEngine jte;

  /** Pages on {@code app}, checked by {@code access}, rendered by {@code jte}. */
  public Web(Javalin app, WebAccess access, Sessions sessions, TemplateEngine jte) {
    this.app = app;
    this.access = access;
    this.sessions = sessions;
    this.jte = jte;
  }

  /** The server's checks. */
  public WebAccess access() {
    return access;
  }

  /** The sessions. */
  public Sessions sessions() {
    return sessions;
  }

  /** Registers a page read with GET that requires {@code role}. */
  public void get(String path, Role role, Page page) {
    app.addHttpHandler(HandlerType.GET, path, ctx -> run(ctx, path, Optional.of(role), page));
  }

  /** Registers an action taken with POST that requires {@code role}; its CSRF token is checked. */
  public void post(String path, Role role, Page page) {
    app.addHttpHandler(HandlerType.POST, path, ctx -> run(ctx, path, Optional.of(role), page));
  }

  /** Registers a page anyone may see (the login form), with the session and CSRF checks. */
  public void open(HandlerType method, String path, Page page) {
    app.addHttpHandler(method, path, ctx -> run(ctx, path, Optional.empty(), page));
  }

  /** Sets the headers every page carries. */
  public static void securityHeaders(Context ctx) {
    ctx.header("Content-Security-Policy", CSP);
    ctx.header("X-Content-Type-Options", "nosniff");
    ctx.header("X-Frame-Options", "DENY");
    ctx.header("Referrer-Policy", "no-referrer");
    ctx.header("Cache-Control", "no-store");
  }

  private void run(Context ctx, String path, Optional<Role> role, Page page) {
    access.route(ctx, path);
    securityHeaders(ctx);
    try {
      access.checkClient(ctx);
      Sessions.Session session = sessions.ensure(ctx);
      boolean loginRequired = !access.credentials().isEmpty();
      Optional<Viewer> viewer = viewer(session, loginRequired);
      access.checkRate(ctx, viewer.flatMap(Viewer::credential));
      boolean post = ctx.method() == HandlerType.POST;
      if (post) {
        if (ctx.req().getContentLengthLong() > FORM_LIMIT) {
          throw new PageProblem(413, "the form is larger than " + FORM_LIMIT + " bytes");
        }
        String presented = ctx.header("X-CSRF-Token");
        if (presented == null) {
          presented = ctx.formParam("_csrf");
        }
        if (!Sessions.csrfMatches(session, presented)) {
          throw new PageProblem(
              403,
              "the form's CSRF token does not match your session (it may have expired): reload"
                  + " the page and try again");
        }
      }
      if (role.isPresent()) {
        if (viewer.isEmpty()) {
          if (post) {
            throw new PageProblem(401, "sign in first");
          }
          String next = ctx.path() + (ctx.queryString() == null ? "" : "?" + ctx.queryString());
          ctx.redirect(
              "/ui/login?next=" + URLEncoder.encode(next, StandardCharsets.UTF_8),
              io.javalin.http.HttpStatus.SEE_OTHER);
          return;
        }
        if (!viewer.get().allows(role.get())) {
          throw PageProblem.forbidden(
              "this needs the "
                  + role.get().label()
                  + " role"
                  + (role.get() == Role.LEGAL ? "" : " or above")
                  + "; you are signed in as "
                  + viewer.get().label());
        }
      }
      page.serve(new Req(ctx, viewer.orElse(Viewer.LOCAL), session, jte, loginRequired));
    } catch (Exception e) {
      error(ctx, e);
    }
  }

  private Optional<Viewer> viewer(Sessions.Session session, boolean loginRequired) {
    if (!loginRequired) {
      return Optional.of(Viewer.LOCAL);
    }
    if (session.credentialId().isEmpty()) {
      return Optional.empty();
    }
    String id = session.credentialId().get();
    for (Credential c : access.credentials()) {
      if (c.id().equals(id)) {
        return Optional.of(new Viewer(Optional.of(c)));
      }
    }
    return Optional.empty(); // revoked since login
  }

  private void error(Context ctx, Exception e) {
    int status;
    String message;
    if (e instanceof PageProblem p) {
      status = p.status();
      message = p.getMessage();
    } else if (e instanceof HttpProblem p) {
      status = p.status();
      message = p.detail();
    } else if (e instanceof NotFoundException) {
      status = 404;
      message = e.getMessage();
    } else if (e instanceof InvalidRequestException || e instanceof IllegalArgumentException) {
      status = 400;
      message = e.getMessage();
    } else if (e instanceof ConflictException) {
      status = 409;
      message = e.getMessage();
    } else if (e instanceof LociException) {
      status = 503;
      message = e.getMessage();
    } else {
      status = 500;
      message = "the page failed: " + e;
      System.getLogger("dev.loci.ui").log(System.Logger.Level.ERROR, "page failed", e);
    }
    String text = message == null ? e.toString() : message;
    gg.jte.output.StringOutput out = new gg.jte.output.StringOutput();
    jte.render("error.jte", Map.of("status", status, "message", text), out);
    ctx.status(status).contentType("text/html; charset=utf-8").result(out.toString());
  }
}
