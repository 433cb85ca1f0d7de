package dev.loci.server.internal;

import dev.loci.LegalCapability;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.server.Credential;
import dev.loci.server.Role;
import dev.loci.server.spi.Exchange;
import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.JsonBody;
import dev.loci.server.spi.Route;
import io.javalin.http.Context;
import java.io.ByteArrayOutputStream;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/** An {@link Exchange} over a Javalin context, with the checks' results. */
final class JavalinExchange implements Exchange {
  private final Context ctx;
  private final Route route;
  private final Principal principal;
  private final NamespaceScope scope;
  private final long bodyLimit;
  private final JsonBody.Limits jsonLimits;
  private final BodyRate.Limits bodyRate;

  JavalinExchange(
      Context ctx,
      Route route,
      Principal principal,
      NamespaceScope scope,
      long bodyLimit,
      JsonBody.Limits jsonLimits,
      BodyRate.Limits bodyRate) {
    this.ctx = ctx;
    this.route = route;
    this.principal = principal;
    this.scope = scope;
    this.bodyLimit = bodyLimit;
    this.jsonLimits = jsonLimits;
    this.bodyRate = bodyRate;
  }

  @Override
  public Namespace namespace() {
    return scope().root();
  }

  @Override
  public NamespaceScope scope() {
    if (scope == null) {
      throw new IllegalStateException(route.path() + " names no namespace");
    }
    return scope;
  }

  @Override
  public String pathParam(String name) {
    return ctx.pathParam(name);
  }

  @Override
  public Optional<String> query(String name) {
    return Optional.ofNullable(ctx.queryParam(name));
  }

  @Override
  public Set<String> queryNames() {
    return ctx.queryParamMap().keySet();
  }

  @Override
  public List<String> queries(String name) {
    return ctx.queryParams(name);
  }

  @Override
  public Optional<String> header(String name) {
    return Optional.ofNullable(ctx.header(name));
  }

  @Override
  public JsonBody body() {
    requireBody();
    byte[] bytes = readBounded(ctx, bodyLimit, bodyRate);
    String text;
    try {
      text =
          StandardCharsets.UTF_8
              .newDecoder()
              .onMalformedInput(CodingErrorAction.REPORT)
              .onUnmappableCharacter(CodingErrorAction.REPORT)
              .decode(ByteBuffer.wrap(bytes))
              .toString();
    } catch (CharacterCodingException e) {
      throw new HttpProblem(
          400,
          "malformed-json",
          "Malformed JSON",
          "body: expected UTF-8 text",
          Optional.of("body"));
    }
    return JsonBody.parse(text, jsonLimits);
  }

  @Override
  public InputStream bodyStream() {
    requireBody();
    try {
      return new BoundedInputStream(
          ctx.req().getInputStream(),
          bodyLimit,
          ctx.req().getContentLengthLong(),
          new BodyRate(bodyRate, System::nanoTime));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void requireBody() {
    if (!route.takesBody()) {
      throw new IllegalStateException(route.path() + " does not take a body");
    }
  }

  @Override
  public String actor() {
    return principal.actor();
  }

  @Override
  public Optional<String> tokenId() {
    return principal.credential().map(Credential::id);
  }

  @Override
  public boolean allows(Role role) {
    return principal.satisfies(role);
  }

  @Override
  public boolean reads(NamespaceScope scope) {
    return principal.covers(scope);
  }

  @Override
  public LegalCapability legal(String field) {
    return principal
        .credential()
        .filter(c -> c.role() == Role.LEGAL)
        .map(c -> new LegalCapability(c.id()))
        .orElseThrow(
            () ->
                new HttpProblem(
                    403,
                    "forbidden",
                    "Forbidden",
                    field
                        + " returns superseded versions, which may carry personal data: it needs a"
                        + " credential with the legal role",
                    Optional.of(field)));
  }

  @Override
  public void responseHeader(String name, String value) {
    ctx.header(name, value);
  }

  @Override
  public void json(int status, String json) {
    respond(status, "application/json", json);
  }

  @Override
  public void respond(int status, String contentType, String body) {
    if (status == 200 && notModified()) {
      ctx.status(304).result("");
      ctx.res().setContentType(null); // a 304 has no body, so no type
      return;
    }
    ctx.status(status).contentType(contentType).result(body);
  }

  /**
   * Whether a {@code GET} or {@code HEAD} whose response carries an {@code ETag} matches the
   * request's {@code If-None-Match} (RFC 9110 section 13.1.2: {@code *} or any listed tag, compared
   * weakly), so the answer is {@code 304 Not Modified} with no body.
   */
  private boolean notModified() {
    String method = ctx.method().name();
    String etag = ctx.res().getHeader("ETag");
    String header = ctx.header("If-None-Match");
    if (etag == null || header == null || !(method.equals("GET") || method.equals("HEAD"))) {
      return false;
    }
    String mine = weak(etag.strip());
    for (String tag : header.split(",")) {
      String t = tag.strip();
      if (t.equals("*") || weak(t).equals(mine)) {
        return true;
      }
    }
    return false;
  }

  private static String weak(String tag) {
    return tag.startsWith("W/") ? tag.substring(2) : tag;
  }

  /**
   * Reads the body, never holding more than {@code limit} bytes: a body that goes over is refused
   * as soon as the byte past the limit arrives, whether or not it declared a length. A body that
   * arrives slower than {@code rate}'s minimum, or keeps the reads waiting longer than its wait
   * limit, is refused with 408; see {@link BodyRate}.
   *
   * @throws HttpProblem 413 if the body is longer than {@code limit}, 408 if it is too slow
   */
  static byte[] readBounded(Context ctx, long limit, BodyRate.Limits rate) {
    long declared = ctx.req().getContentLengthLong();
    if (declared > limit) {
      throw tooLarge(limit);
    }
    ByteArrayOutputStream out =
        new ByteArrayOutputStream((int) Math.min(declared > 0 ? declared : 8192, limit));
    try (InputStream in =
        new BoundedInputStream(
            ctx.req().getInputStream(), limit, declared, new BodyRate(rate, System::nanoTime))) {
      in.transferTo(out);
    } catch (IOException e) {
      throw BodyFraming.problem(e, declared);
    }
    return out.toByteArray();
  }

  /** A stream that refuses (413) as soon as the byte past {@code limit} arrives. */
  private static final class BoundedInputStream extends FilterInputStream {
    private final long limit;
    private final long declared;
    private final BodyRate rate;
    private long total;

    BoundedInputStream(InputStream in, long limit, long declared, BodyRate rate) {
      super(in);
      this.limit = limit;
      this.declared = declared;
      this.rate = rate;
    }

    @Override
    public int read() throws IOException {
      long t0 = rate.start();
      int b = BodyFraming.read(in, declared);
      rate.read(t0, b >= 0 ? 1 : 0);
      if (b >= 0) {
        count(1);
      }
      return b;
    }

    @Override
    public int read(byte[] buf, int off, int len) throws IOException {
      long t0 = rate.start();
      int n = BodyFraming.read(in, buf, off, len, declared);
      rate.read(t0, Math.max(n, 0));
      if (n > 0) {
        count(n);
      }
      return n;
    }

    @Override
    public long skip(long n) throws IOException {
      long skipped = super.skip(n);
      count(skipped);
      return skipped;
    }

    private void count(long n) {
      total += n;
      if (total > limit) {
        throw tooLarge(limit);
      }
    }
  }

  static HttpProblem tooLarge(long limit) {
    return new HttpProblem(
        413,
        "body-too-large",
        "Body too large",
        "body: the request body is over this route's limit of " + limit + " bytes",
        Optional.of("body"));
  }
}
