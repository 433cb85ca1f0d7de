package dev.loci.ui.internal;

import dev.loci.InvalidRequestException;
import dev.loci.Namespace;
import gg.jte.TemplateEngine;
import gg.jte.output.StringOutput;
import io.javalin.http.Context;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One page request that passed its checks (session, CSRF, role): the request, who is viewing, and
 * how to answer with a rendered template. Not thread-safe; valid while the handler runs.
 */
public final class Req {
  private final Context ctx;
  private final Viewer viewer;
  private final Sessions.Session session;
  private final TemplateEngine jte;
  private final boolean loginRequired;

  Req(
      Context ctx,
      Viewer viewer,
      Sessions.Session session,
      TemplateEngine jte,
      boolean loginRequired) {
    this.ctx = ctx;
    this.viewer = viewer;
    this.session = session;
    this.jte = jte;
    this.loginRequired = loginRequired;
  }

  /** The Javalin context. */
  public Context ctx() {
    return ctx;
  }

  /** Who is viewing. */
  public Viewer viewer() {
    return viewer;
  }

  /**
   * The namespace of the {@code {ns}} path parameter.
   *
   * @throws PageProblem 400 if it is no namespace, 403 if the viewer may not read it
   */
  public Namespace ns() {
    String raw = ctx.pathParam("ns");
    Namespace ns;
    try {
      ns = Namespace.of(raw);
    } catch (InvalidRequestException | IllegalArgumentException e) {
      throw PageProblem.badField("namespace", "expected a dotted namespace such as acme.alice");
    }
    if (!viewer.reads(ns)) {
      throw PageProblem.forbidden("your token may not read namespace " + ns);
    }
    return ns;
  }

  /** A query parameter, absent when missing or blank. */
  public Optional<String> query(String name) {
    return Optional.ofNullable(ctx.queryParam(name)).map(String::strip).filter(s -> !s.isEmpty());
  }

  /** A form field, absent when missing or blank. */
  public Optional<String> form(String name) {
    return Optional.ofNullable(ctx.formParam(name)).map(String::strip).filter(s -> !s.isEmpty());
  }

  /** The session's CSRF token. */
  public String csrf() {
    return session.csrf();
  }

  /** Whether htmx sent the request (then a fragment is enough). */
  public boolean htmx() {
    return ctx.header("HX-Request") != null;
  }

  /** The layout data for a page titled {@code title} in navigation section {@code section}. */
  public Chrome chrome(String title, String section, Optional<Namespace> ns) {
    return new Chrome(title, section, ns, viewer, session.csrf(), loginRequired);
  }

  /** Renders {@code template} with the layout: parameters {@code chrome} and {@code m}. */
  public void page(String template, Chrome chrome, Object model) {
    Map<String, Object> params = new HashMap<>();
    params.put("chrome", chrome);
    params.put("m", model);
    html(200, template, params);
  }

  /** Renders a fragment (no layout) whose only parameter is {@code m}. */
  public void fragment(String template, Object model) {
    html(200, template, Map.of("m", model));
  }

  /** Renders {@code template} with {@code params} as the response. */
  void html(int status, String template, Map<String, Object> params) {
    StringOutput out = new StringOutput(8192);
    jte.render(template, params, out);
    ctx.status(status).contentType("text/html; charset=utf-8").result(out.toString());
  }

  /** Answers with a redirect to {@code location} (303: the browser follows with a GET). */
  public void redirect(String location) {
    if (htmx()) {
      ctx.header("HX-Redirect", location);
      ctx.status(204);
    } else {
      ctx.redirect(location, io.javalin.http.HttpStatus.SEE_OTHER);
    }
  }
}
