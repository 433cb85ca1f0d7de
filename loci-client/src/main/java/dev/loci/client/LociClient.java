package dev.loci.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.LociException;
import dev.loci.Namespace;
import dev.loci.Page;
import dev.loci.StorageException;
import dev.loci.Trace;
import dev.loci.TraceQuery;
import dev.loci.client.internal.Problems;
import dev.loci.client.internal.RawItems;
import dev.loci.govern.Candidate;
import dev.loci.govern.ContextPack;
import dev.loci.govern.Entity;
import dev.loci.govern.EntityDraft;
import dev.loci.govern.EntityStatus;
import dev.loci.govern.EntityType;
import dev.loci.govern.EntityWire;
import dev.loci.govern.EntityWritten;
import dev.loci.govern.GovernWire;
import dev.loci.govern.Memory;
import dev.loci.govern.MemoryDraft;
import dev.loci.govern.MemoryStatus;
import dev.loci.govern.MemoryType;
import dev.loci.govern.Written;
import dev.loci.recall.IngestReport;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.RecallWire;
import dev.loci.recall.RecordVersion;
import dev.loci.recall.spi.SourceDocument;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.StringJoiner;

/**
 * A client of a remote Loci server's HTTP API v1, on {@code java.net.http}: the {@link LociApi}
 * over the network, with the records of the embedded API, read with each layer's own wire classes
 * ({@link Trace#fromJson}, {@link RecallWire}, {@link GovernWire}), and its exceptions, turned back
 * from problem responses.
 *
 * <pre>{@code
 * try (LociClient loci = LociClient.builder(URI.create("http://127.0.0.1:7070"))
 *         .token(System.getenv("LOCI_TOKEN")).build()) {
 *   RecallResult r = loci.recall(Namespace.of("acme.docs"),
 *       RecallQuery.builder("payment terms", RecallMode.HYBRID).build());
 * }
 * }</pre>
 *
 * <p>Every call is one request; writes are acknowledged only once durable on the server. Network
 * failures are {@link StorageException}s naming the server. Thread-safe.
 */
public final class LociClient implements LociApi {
  private static final ObjectMapper MAPPER =
      new ObjectMapper()
          .enable(com.fasterxml.jackson.databind.DeserializationFeature.FAIL_ON_TRAILING_TOKENS);

  private final URI base;
  private final String root;
  private final Optional<String> token;
  private final Duration timeout;
  private final HttpClient http;

  private LociClient(Builder b) {
    this.base = b.base;
    String text = b.base.toString();
    this.root = text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    this.token = b.token;
    this.timeout = b.timeout;
    this.http = HttpClient.newBuilder().connectTimeout(b.timeout).build();
  }

  /**
   * Starts configuring a client of the server at {@code baseUrl}, such as {@code http://host:7070}.
   */
  public static Builder builder(URI baseUrl) {
    return new Builder(baseUrl);
  }

  /** The server's base URL. */
  public URI baseUrl() {
    return base;
  }

  // ---------------------------------------------------------------- traces

  @Override
  public Trace addTrace(Namespace ns, String content, List<String> tags) {
    return Trace.fromJson(
        send("POST", ns, "/traces", Optional.of(traceBody(content, tags)), "", Optional.empty()));
  }

  @Override
  public Trace trace(Namespace ns, String uid) {
    return Trace.fromJson(get(ns, "/traces/" + segment(uid), uid));
  }

  @Override
  public Trace reviseTrace(
      Namespace ns,
      String predecessorUid,
      String content,
      List<String> tags,
      String expectedVersion) {
    return Trace.fromJson(
        send(
            "POST",
            ns,
            "/traces/" + segment(predecessorUid) + "/revisions",
            Optional.of(traceBody(content, tags)),
            predecessorUid,
            Optional.of(expectedVersion)));
  }

  @Override
  public Trace retireTrace(Namespace ns, String uid, String expectedVersion) {
    return Trace.fromJson(
        send(
            "POST",
            ns,
            "/traces/" + segment(uid) + "/retire",
            Optional.empty(),
            uid,
            Optional.of(expectedVersion)));
  }

  @Override
  public Page<Trace> searchTraces(TraceQuery q) {
    StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    if (q.scope().descendants()) {
      query.add("subtree=true");
    }
    q.tags().forEach(t -> query.add("tag=" + param(t)));
    q.contentContains().ifPresent(c -> query.add("contains=" + param(c)));
    q.createdFrom().ifPresent(t -> query.add("created_from=" + param(t.toString())));
    q.createdBefore().ifPresent(t -> query.add("created_before=" + param(t.toString())));
    if (q.includeRetired()) {
      query.add("include_retired=true");
    }
    query.add("limit=" + q.limit());
    q.cursor().ifPresent(c -> query.add("cursor=" + param(c)));
    RawItems page = RawItems.parse(get(q.scope().root(), "/traces" + query, ""));
    return new Page<>(page.items().stream().map(Trace::fromJson).toList(), page.nextCursor());
  }

  /**
   * The revision chain of a trace, newest first; needs a {@code legal} token, and the server
   * records the read in the audit log of every subject it touches.
   *
   * @throws dev.loci.NotFoundException naming {@code uid}
   * @throws RemoteException 403 for a token of another role
   */
  public List<Trace> traceHistory(Namespace ns, String uid) {
    return RawItems.parse(get(ns, "/traces/" + segment(uid) + "/history", uid)).items().stream()
        .map(Trace::fromJson)
        .toList();
  }

  private static String traceBody(String content, List<String> tags) {
    // the content is sent as the JSON value it is: checked here so a bad value names its field
    // instead of breaking the request body
    try {
      MAPPER.readTree(content);
    } catch (IOException e) {
      throw new InvalidRequestException("content", "expected valid JSON, found an error");
    }
    ObjectNode t = MAPPER.createObjectNode();
    com.fasterxml.jackson.databind.node.ArrayNode array = t.putArray("tags");
    tags.forEach(array::add);
    String rest = t.toString();
    return "{\"content\":" + content + "," + rest.substring(1);
  }

  // ---------------------------------------------------------------- recall

  @Override
  public List<IngestReport> ingest(Namespace ns, String pack, List<SourceDocument> documents) {
    String body = RecallWire.writeIngest(pack, documents);
    String out = send("POST", ns, "/ingest", Optional.of(body), "", Optional.empty());
    return RecallWire.readIngestReports(RawItems.parse(out).array());
  }

  @Override
  public RecordVersion<MemoryNode> putNode(Namespace ns, MemoryNode node) {
    ObjectNode body = (ObjectNode) tree(RecallWire.write(node));
    body.remove("id");
    String out =
        send(
            "PUT",
            ns,
            "/nodes/" + segment(node.id()),
            Optional.of(body.toString()),
            node.id(),
            Optional.empty());
    return RecallWire.readNodeVersion(out);
  }

  @Override
  public RecallResult recall(Namespace ns, RecallQuery query) {
    String out =
        send(
            "POST", ns, "/recall", Optional.of(RecallWire.writeQuery(query)), "", Optional.empty());
    return RecallWire.readResult(out);
  }

  // ---------------------------------------------------------------- governed memory

  @Override
  public Written propose(Namespace ns, MemoryDraft draft) {
    String body = GovernWire.draft(draft).toString();
    return GovernWire.written(
        tree(send("POST", ns, "/memories", Optional.of(body), "", Optional.empty())));
  }

  @Override
  public Written promote(Namespace ns, String memoryId) {
    String path = "/memories/" + segment(memoryId) + "/promote";
    return GovernWire.written(
        tree(send("POST", ns, path, Optional.empty(), memoryId, Optional.empty())));
  }

  @Override
  public List<Memory> memoryHistory(Namespace ns, String memoryId) {
    JsonNode head = tree(get(ns, "/memories/" + segment(memoryId), memoryId));
    return read(head.path("history"), GovernWire::memory);
  }

  @Override
  public List<Memory> memories(
      Namespace ns, Optional<MemoryType> type, Optional<MemoryStatus> status) {
    String query = typeAndStatus(type.map(MemoryType::label), status.map(MemoryStatus::label));
    return read(tree(get(ns, "/memories" + query, "")).path("items"), GovernWire::memory);
  }

  @Override
  public EntityWritten proposeEntity(Namespace ns, EntityDraft draft) {
    String body = EntityWire.draft(draft).toString();
    return EntityWire.written(
        tree(send("POST", ns, "/entities", Optional.of(body), "", Optional.empty())));
  }

  @Override
  public List<Entity> entityHistory(Namespace ns, String entityId) {
    JsonNode head = tree(get(ns, "/entities/" + segment(entityId), entityId));
    return read(head.path("history"), EntityWire::entity);
  }

  @Override
  public List<Entity> entities(
      Namespace ns, Optional<EntityType> type, Optional<EntityStatus> status) {
    String query = typeAndStatus(type.map(EntityType::label), status.map(EntityStatus::label));
    return read(tree(get(ns, "/entities" + query, "")).path("items"), EntityWire::entity);
  }

  @Override
  public List<Candidate> candidates(Namespace ns) {
    return read(tree(get(ns, "/candidates", "")).path("items"), EntityWire::candidate);
  }

  @Override
  public Candidate promoteCandidate(Namespace ns, String id) {
    String path = "/candidates/" + segment(id) + "/promote";
    return decided(tree(send("POST", ns, path, Optional.empty(), id, Optional.empty())));
  }

  @Override
  public Candidate rejectCandidate(Namespace ns, String id, String reason) {
    String path = "/candidates/" + segment(id) + "/reject";
    String body = MAPPER.createObjectNode().put("reason", reason).toString();
    return decided(tree(send("POST", ns, path, Optional.of(body), id, Optional.empty())));
  }

  private static String typeAndStatus(Optional<String> type, Optional<String> status) {
    StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
    type.ifPresent(t -> query.add("type=" + param(t)));
    status.ifPresent(s -> query.add("status=" + param(s)));
    return query.toString();
  }

  private static <T> List<T> read(JsonNode array, java.util.function.Function<JsonNode, T> one) {
    List<T> out = new ArrayList<>();
    array.forEach(n -> out.add(one.apply(n)));
    return out;
  }

  /** A queue decision's answer ({@code {"memory"}}, {@code {"entity"}} or the record itself). */
  private static Candidate decided(JsonNode n) {
    if (n.has("memory")) {
      return Candidate.of(GovernWire.memory(n.get("memory")));
    }
    if (n.has("entity")) {
      return Candidate.of(EntityWire.entity(n.get("entity")));
    }
    return n.has("name") ? Candidate.of(EntityWire.entity(n)) : Candidate.of(GovernWire.memory(n));
  }

  @Override
  public ContextPack context(Namespace ns, String prompt, int budgetTokens) {
    ObjectNode body = MAPPER.createObjectNode().put("prompt", prompt);
    body.put("budget_tokens", budgetTokens);
    return GovernWire.contextPack(
        tree(send("POST", ns, "/context", Optional.of(body.toString()), "", Optional.empty())));
  }

  /** Nothing to release: {@code java.net.http} closes idle connections itself. */
  @Override
  public void close() {}

  // ---------------------------------------------------------------- transport

  private String get(Namespace ns, String path, String record) {
    return send("GET", ns, path, Optional.empty(), record, Optional.empty());
  }

  /**
   * Sends one request under {@code /v1/ns/{ns}} and returns the body of a 2xx answer.
   *
   * @param record the record the request names, for the exception of a stale version
   * @param expected the version the write is conditional on ({@code If-Match}), if it is
   */
  private String send(
      String method,
      Namespace ns,
      String path,
      Optional<String> body,
      String record,
      Optional<String> expected) {
    URI uri = URI.create(root + "/v1/ns/" + ns.value() + path);
    HttpRequest.Builder req =
        HttpRequest.newBuilder(uri)
            .timeout(timeout)
            .header("Accept", "application/json")
            .method(
                method,
                body.map(b -> HttpRequest.BodyPublishers.ofString(b, StandardCharsets.UTF_8))
                    .orElse(HttpRequest.BodyPublishers.noBody()));
    body.ifPresent(b -> req.header("Content-Type", "application/json"));
    token.ifPresent(t -> req.header("Authorization", "Bearer " + t));
    expected.ifPresent(v -> req.header("If-Match", "\"" + v + "\""));
    HttpResponse<String> res;
    try {
      res = http.send(req.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    } catch (IOException e) {
      throw new StorageException(
          "cannot reach the Loci server at " + base + ": " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while calling the Loci server at " + base, e);
    }
    if (res.statusCode() >= 400) {
      LociException failure = Problems.of(res.statusCode(), res.body(), record, expected);
      throw failure;
    }
    return res.body();
  }

  private static JsonNode tree(String json) {
    try {
      return MAPPER.readTree(json);
    } catch (IOException e) {
      throw new StorageException("the server's answer is not JSON: " + e.getMessage(), e);
    }
  }

  private static String segment(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
  }

  private static String param(String s) {
    return URLEncoder.encode(s, StandardCharsets.UTF_8);
  }

  /** Configures a {@link LociClient}; not thread-safe. */
  public static final class Builder {
    private final URI base;
    private Optional<String> token = Optional.empty();
    private Duration timeout = Duration.ofSeconds(30);

    private Builder(URI base) {
      Objects.requireNonNull(base, "baseUrl");
      String scheme = base.getScheme();
      if (!"http".equals(scheme) && !"https".equals(scheme)) {
        throw new IllegalArgumentException(
            "expected an http or https URL such as http://127.0.0.1:7070, found " + base);
      }
      this.base = base;
    }

    /** The bearer token sent with every request; none by default (a server with no tokens). */
    public Builder token(String token) {
      Objects.requireNonNull(token, "token");
      if (token.isBlank()) {
        throw new IllegalArgumentException("token must not be blank");
      }
      this.token = Optional.of(token);
      return this;
    }

    /** How long to wait to connect and for each answer; default 30 seconds. */
    public Builder timeout(Duration timeout) {
      Objects.requireNonNull(timeout, "timeout");
      if (timeout.isNegative() || timeout.isZero()) {
        throw new IllegalArgumentException("timeout must be positive, found " + timeout);
      }
      this.timeout = timeout;
      return this;
    }

    /** The client. */
    public LociClient build() {
      return new LociClient(this);
    }
  }
}
