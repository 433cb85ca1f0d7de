package dev.loci.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.loci.Loci;
import dev.loci.server.spi.RouteSet;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A running server on 127.0.0.1 and a port of its own, over a data directory of the test's, with an
 * HTTP client that records every response for {@link OpenApiTest}.
 */
final class ServerFixture implements AutoCloseable {
  static final ObjectMapper MAPPER = new ObjectMapper();

  /** Every response any fixture saw, for the OpenAPI check. */
  static final ConcurrentLinkedQueue<Seen> SEEN = new ConcurrentLinkedQueue<>();

  /** One response as the client saw it. */
  record Seen(String method, String path, int status, String contentType, String body) {}

  /** What one request returned. */
  record Reply(int status, HttpResponse<String> raw) {
    JsonNode json() {
      try {
        return MAPPER.readTree(raw.body());
      } catch (IOException e) {
        throw new UncheckedIOException("not JSON: " + raw.body(), e);
      }
    }

    String body() {
      return raw.body();
    }

    Optional<String> header(String name) {
      return raw.headers().firstValue(name);
    }
  }

  final Path dataDir;
  final LociServer server;
  final HttpClient client =
      HttpClient.newBuilder()
          .version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(5))
          .build();
  final ConcurrentLinkedQueue<String> accessLog = new ConcurrentLinkedQueue<>();

  ServerFixture(Path dataDir, ServerConfig config, List<Function<Loci, RouteSet>> extra) {
    this(dataDir, config, extra, b -> {});
  }

  /** A server whose builder {@code customize} sees last, before it starts. */
  ServerFixture(
      Path dataDir,
      ServerConfig config,
      List<Function<Loci, RouteSet>> extra,
      Consumer<LociServer.Builder> customize) {
    this.dataDir = dataDir;
    LociServer.Builder b =
        LociServer.builder(Loci.builder().dataDir(dataDir))
            .config(config.withHost("127.0.0.1").withPort(0))
            .accessLog(accessLog::add)
            .drain(Duration.ofSeconds(10));
    extra.forEach(b::routes);
    customize.accept(b);
    this.server = b.start();
  }

  ServerFixture(Path dataDir, ServerConfig config) {
    this(dataDir, config, List.of());
  }

  ServerFixture(Path dataDir) {
    this(dataDir, ServerConfig.defaults());
  }

  URI uri(String path) {
    return URI.create("http://127.0.0.1:" + server.port() + path);
  }

  HttpRequest.Builder request(String path, Optional<String> token) {
    HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).timeout(Duration.ofSeconds(30));
    token.ifPresent(t -> b.header("Authorization", "Bearer " + t));
    return b;
  }

  Reply send(HttpRequest request) {
    try {
      HttpResponse<String> r = client.send(request, HttpResponse.BodyHandlers.ofString());
      SEEN.add(
          new Seen(
              request.method(),
              request.uri().getRawPath(),
              r.statusCode(),
              r.headers().firstValue("Content-Type").orElse(""),
              r.body()));
      return new Reply(r.statusCode(), r);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  Reply send(String method, String path, Optional<String> token, Optional<String> json) {
    HttpRequest.Builder b = request(path, token);
    if (json.isPresent()) {
      b.header("Content-Type", "application/json")
          .method(method, HttpRequest.BodyPublishers.ofString(json.get()));
    } else {
      b.method(method, HttpRequest.BodyPublishers.noBody());
    }
    return send(b.build());
  }

  Reply get(String path) {
    return send("GET", path, Optional.empty(), Optional.empty());
  }

  Reply post(String path, String json) {
    return send("POST", path, Optional.empty(), Optional.of(json));
  }

  /** Adds a trace and returns its JSON; fails the test if the add fails. */
  JsonNode add(String ns, String json) {
    Reply r = post("/v1/ns/" + ns + "/traces", json);
    if (r.status() != 201) {
      throw new AssertionError("add failed: " + r.status() + " " + r.body());
    }
    return r.json();
  }

  @Override
  public void close() {
    server.close();
  }
}
