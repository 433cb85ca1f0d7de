package dev.loci.server.internal;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.server.Cidr;
import dev.loci.server.RequestLimits;
import dev.loci.server.Role;
import dev.loci.server.ServerConfig;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.JsonBody;
import dev.loci.server.spi.Route;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HandlerType;
import java.net.InetAddress;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.function.Consumer;
import org.eclipse.jetty.server.AbstractConnector;
import org.eclipse.jetty.server.Connector;

/**
 * The request pipeline around every route, and the Javalin application that runs it.
 *
 * <p>Design. Each {@link Route} is registered with a wrapper that enforces its declaration before
 * the handler runs (client address, allowlist, credential, rate, role, namespace, content type,
 * declared body length: see {@link Route}); one exception handler turns every failure into a
 * problem response; one request logger feeds the metrics and writes the access log. Nothing depends
 * on a route's path except its {@code {ns}} parameter, so a layer's routes need no code here.
 */
public final class HttpPipeline {
  private static final String ROUTE = "loci.route";
  private static final String CLIENT = "loci.client";
  private static final String TOKEN = "loci.token";
  private static final String NO_LEGAL_CREDENTIAL =
      "this route requires a legal credential, and the server has no credential configured: it"
          + " reads data that may carry personal information, which is never served without one."
          + " Create one with 'loci token create --role legal --ns <namespaces>' and restart";

  private final ServerConfig config;
  private final Guard guard;
  private final Metrics metrics;
  private final Consumer<String> accessLog;
  private final Javalin app;
  private final JsonBody.Limits jsonLimits;
  private final BodyRate.Limits bodyRate;

  /**
   * Builds the application, not yet started.
   *
   * @param routes every route, in registration order
   * @param accessLog receives one JSON line per request
   * @param drain how long stopping waits for requests in flight
   */
  public HttpPipeline(
      ServerConfig config,
      List<Route> routes,
      Consumer<String> accessLog,
      Duration drain,
      Metrics metrics) {
    this.config = config;
    this.guard = new Guard(config);
    this.metrics = metrics;
    this.accessLog = accessLog;
    RequestLimits limits = config.limits();
    this.bodyRate = new BodyRate.Limits(limits.bodyMinBytesPerSecond(), limits.bodyWaitMillis());
    this.jsonLimits =
        new JsonBody.Limits(limits.jsonDepth(), limits.jsonStringChars(), limits.jsonArrayItems());
    this.app =
        Javalin.create(
            cfg -> {
              cfg.showJavalinBanner = false;
              cfg.startupWatcherEnabled = false;
              cfg.http.prefer405over404 = true;
              cfg.jetty.modifyServer(
                  server -> {
                    server.setStopTimeout(drain.toMillis());
                    server.setErrorHandler(new ProblemErrorHandler());
                  });
              cfg.jetty.modifyHttpConfiguration(
                  http -> {
                    // the body rate is measured by the body reader over the time it waited for
                    // bytes (BodyRate), not by Jetty from the first byte: Jetty's count includes
                    // time a busy server was not reading, which refused small bodies under load
                    http.setMinRequestDataRate(0);
                    // dispatch on the headers, so a request refused by them (413 by its declared
                    // length, 401, 403) is answered at once, not after its first body byte
                    http.setDelayDispatchUntilContent(false);
                  });
              cfg.requestLogger.http(this::finished);
            });
    for (Route r : routes) {
      app.addHttpHandler(HandlerType.valueOf(r.method().name()), r.path(), ctx -> serve(ctx, r));
    }
    app.exception(Exception.class, (e, ctx) -> respond(ctx, Problems.of(e)));
    app.error(404, ctx -> respondIfBare(ctx, 404));
    app.error(405, ctx -> respondIfBare(ctx, 405));
  }

  /**
   * Replaces the credentials in force; requests that start afterwards see only the new ones.
   *
   * @throws IllegalArgumentException if that would leave a server that had credentials without any
   */
  public void credentials(List<dev.loci.server.Credential> credentials) {
    guard.credentials(credentials);
  }

  /** The credentials in force. */
  public List<dev.loci.server.Credential> credentials() {
    return guard.credentials();
  }

  /**
   * Registers the pages of {@code web} beside the routes, with the credentials, allowlist and
   * metrics of this pipeline; call before {@link #start()}.
   */
  public void mount(dev.loci.server.spi.WebMount web) {
    web.mount(app, new Access());
  }

  /** The pipeline's checks as a {@link dev.loci.server.spi.WebAccess}. */
  private final class Access implements dev.loci.server.spi.WebAccess {
    @Override
    public List<dev.loci.server.Credential> credentials() {
      return guard.credentials();
    }

    @Override
    public Optional<dev.loci.server.Credential> authenticate(String token) {
      if (guard.credentials().isEmpty()) {
        return Optional.empty();
      }
      try {
        return guard.authenticate(Optional.of("Bearer " + token)).credential();
      } catch (HttpProblem unknown) {
        return Optional.empty();
      }
    }

    @Override
    public void checkClient(Context ctx) {
      guard.checkAllowed(client(ctx));
    }

    @Override
    public void checkRate(Context ctx, Optional<dev.loci.server.Credential> credential) {
      Principal p = new Principal(credential);
      if (credential.isPresent()) {
        ctx.attribute(TOKEN, p.id());
      }
      guard.checkRate(p, client(ctx));
    }

    @Override
    public String metrics() {
      return metrics.scrape();
    }

    @Override
    public void route(Context ctx, String template) {
      ctx.attribute(ROUTE, template);
    }
  }

  /** Binds and starts serving. */
  public void start() {
    app.start(config.host(), config.port());
    for (Connector c : app.jettyServer().server().getConnectors()) {
      if (c instanceof AbstractConnector ac) {
        ac.setIdleTimeout(config.limits().bodyIdleMillis());
      }
    }
  }

  /** The port bound. */
  public int port() {
    return app.port();
  }

  /** Stops accepting, waits for requests in flight up to the drain time, and stops. */
  public void stop() {
    app.stop();
  }

  private void serve(Context ctx, Route r) throws Exception {
    ctx.attribute(ROUTE, r.path());
    Optional<InetAddress> client = client(ctx);
    if (r.role().isEmpty()) {
      r.handler()
          .handle(new JavalinExchange(ctx, r, Principal.LOCAL, null, 0, jsonLimits, bodyRate));
      return;
    }
    guard.checkAllowed(client);
    Principal p = guard.authenticate(Optional.ofNullable(ctx.header("Authorization")));
    ctx.attribute(TOKEN, p.id());
    guard.checkRate(p, client);
    Role required = r.role().get();
    if (!p.satisfies(required)) {
      throw forbidden(p.credential().isEmpty() ? NO_LEGAL_CREDENTIAL : roleTooLow(p, required));
    }
    NamespaceScope scope = null;
    if (r.namespaces() != Route.NamespaceAccess.NONE) {
      Namespace ns = Namespace.of(ctx.pathParam("ns"));
      boolean subtree =
          r.namespaces() == Route.NamespaceAccess.PATH_OR_SUBTREE
              && QueryParams.flag(ctx.queryParam("subtree"), "subtree");
      scope = new NamespaceScope(ns, subtree);
      if (!p.covers(scope)) {
        throw forbidden("token " + p.id() + " may not reach namespace " + scope);
      }
    }
    long limit = 0;
    if (r.takesBody()) {
      checkContentType(ctx.contentType());
      limit = config.bodyLimits().limitFor(ctx.path());
      if (ctx.req().getContentLengthLong() > limit) {
        throw JavalinExchange.tooLarge(limit);
      }
    }
    r.handler().handle(new JavalinExchange(ctx, r, p, scope, limit, jsonLimits, bodyRate));
  }

  /** The client of {@code ctx} (see {@link Guard#client}), recorded for the access log. */
  private Optional<InetAddress> client(Context ctx) {
    InetAddress peer =
        Cidr.parseAddress(ctx.req().getRemoteAddr())
            .orElseThrow(() -> new IllegalStateException("peer " + ctx.req().getRemoteAddr()));
    Optional<InetAddress> client =
        guard.client(peer, Collections.list(ctx.req().getHeaders("X-Forwarded-For")));
    ctx.attribute(CLIENT, client.map(InetAddress::getHostAddress).orElse("?"));
    return client;
  }

  private static String roleTooLow(Principal p, Role required) {
    return "token "
        + p.id()
        + " has role "
        + p.credential().orElseThrow().role().label()
        + "; this route requires "
        + (required == Role.LEGAL ? "legal" : required.label() + " or above");
  }

  private static HttpProblem forbidden(String detail) {
    return new HttpProblem(403, "forbidden", "Forbidden", detail, Optional.empty());
  }

  private static void checkContentType(String contentType) {
    String type = contentType == null ? "" : contentType.toLowerCase(Locale.ROOT);
    int semi = type.indexOf(';');
    String media = (semi < 0 ? type : type.substring(0, semi)).strip();
    String params = semi < 0 ? "" : type.substring(semi + 1).replace(" ", "");
    boolean json =
        media.equals("application/json") || media.matches("application/[a-z.+-]+\\+json");
    boolean utf8 = !params.contains("charset=") || params.contains("charset=utf-8");
    if (!json || !utf8) {
      throw new HttpProblem(
          415,
          "unsupported-media-type",
          "Unsupported media type",
          "Content-Type: expected application/json (UTF-8), found "
              + (contentType == null ? "none" : "'" + contentType + "'"),
          Optional.of("Content-Type"));
    }
  }

  private void respondIfBare(Context ctx, int status) {
    String type = ctx.res().getContentType();
    if (type == null || !type.startsWith(Problems.CONTENT_TYPE)) {
      respond(ctx, Problems.fromJavalin(status));
    }
  }

  private void respond(Context ctx, HttpProblem p) {
    if (p.status() == 401) {
      ctx.header("WWW-Authenticate", "Bearer realm=\"loci\"");
    }
    if (p.status() == 429) {
      ctx.header("Retry-After", Long.toString(guard.retryAfterSeconds()));
    }
    if (p.status() == 503) {
      ctx.header("Retry-After", "1"); // storage that refused a write is worth asking again soon
    }
    if (ctx.req().getContentLengthLong() > 0 || ctx.header("Transfer-Encoding") != null) {
      // the body may be unread: closing answers now, where keeping the connection would first
      // wait for (and discard) the rest of it, up to limits.body_idle_ms
      ctx.header("Connection", "close");
    }
    ctx.status(p.status()).contentType(Problems.CONTENT_TYPE).result(Problems.json(p));
  }

  private void finished(Context ctx, Float millis) {
    String route = ctx.attribute(ROUTE);
    if (route == null) {
      route = "unmatched";
    }
    String method = ctx.method().name();
    int status = ctx.statusCode();
    metrics.request(method, route, status, millis / 1000.0);
    String client = ctx.attribute(CLIENT);
    String token = ctx.attribute(TOKEN);
    StringBuilder line = new StringBuilder(160);
    line.append("{\"ts\":\"").append(Instant.now()).append("\",\"method\":\"").append(method);
    line.append("\",\"route\":").append(quote(route)).append(",\"status\":").append(status);
    line.append(",\"duration_ms\":").append(String.format(Locale.ROOT, "%.3f", millis));
    line.append(",\"remote\":")
        .append(quote(client != null ? client : ctx.req().getRemoteAddr()))
        .append(",\"token\":")
        .append(quote(token != null ? token : "-"))
        .append('}');
    accessLog.accept(line.toString());
  }

  private static String quote(String s) {
    return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
  }
}
