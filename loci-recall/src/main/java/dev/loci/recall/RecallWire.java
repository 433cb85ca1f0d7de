package dev.loci.recall;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.recall.internal.RecallJson;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.SourceDocument;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The JSON wire format of the recall layer, shared by the HTTP server, the CLI and the MCP server:
 * snake_case members, absent optional values left out, modes by their wire names.
 *
 * <p>Readers take one JSON object and name the offending member in every {@link
 * InvalidRequestException} they throw (for example {@code weights.semantic} or {@code
 * documents[2].text}); unknown members are refused. Stateless and thread-safe.
 */
public final class RecallWire {
  private static final Set<String> NODE_FIELDS =
      Set.of(
          "type",
          "content",
          "attributes",
          "importance",
          "risk",
          "novelty",
          "confidence",
          "usage_count",
          "decay_factor",
          "source_ref",
          "subject_ids");
  private static final Set<String> EDGE_FIELDS =
      Set.of("from", "to", "edge_type", "weight", "confidence", "bidirectional", "source_ref");
  private static final Set<String> QUERY_FIELDS =
      Set.of(
          "query",
          "mode",
          "k",
          "weights",
          "seeds",
          "hops",
          "decay",
          "threshold",
          "restart",
          "lexical_share",
          "session_cap",
          "context_weight",
          "length_norm",
          "as_of");

  private RecallWire() {}

  /**
   * What an ingest request asks for.
   *
   * @param pack the domain pack
   * @param documents the documents, at least one
   */
  public record IngestRequest(DomainPack pack, List<SourceDocument> documents) {
    /** Checks presence and copies the documents. */
    public IngestRequest {
      Objects.requireNonNull(pack, "pack");
      documents = List.copyOf(documents);
    }
  }

  // ---------------------------------------------------------------- writing

  /**
   * Writes a recall value ({@link RecallResult}, {@link IngestReport}, {@link MemoryNode}, {@link
   * MemoryEdge}, {@link GraphStats}, or a list of them) as compact JSON.
   */
  public static String write(Object value) {
    return RecallJson.write(value);
  }

  /**
   * One version of a node: {@code {"node": {...}, "version": 3, "at": "...", "removed": false}}
   * (the node holds the last value when the version is a removal).
   */
  public static String writeNode(RecordVersion<MemoryNode> v) {
    return version("node", v).toString();
  }

  /**
   * One version of a node and, newest first, every version of its history: {@code {"node": ...,
   * "version": 3, "at": ..., "removed": false, "history": [...]}}.
   */
  public static String writeNode(
      RecordVersion<MemoryNode> v, List<RecordVersion<MemoryNode>> history) {
    return withHistory("node", v, history);
  }

  /** One version of an edge and, newest first, every version of its history. */
  public static String writeEdge(
      RecordVersion<MemoryEdge> v, List<RecordVersion<MemoryEdge>> history) {
    return withHistory("edge", v, history);
  }

  private static <T> String withHistory(
      String name, RecordVersion<T> v, List<RecordVersion<T>> history) {
    ObjectNode out = version(name, v);
    ArrayNode h = out.putArray("history");
    history.forEach(e -> h.add(version(name, e)));
    return out.toString();
  }

  /** One version of an edge: {@code {"edge": {...}, "version": 1, "at": ..., "removed": ...}}. */
  public static String writeEdge(RecordVersion<MemoryEdge> v) {
    return version("edge", v).toString();
  }

  /** A list of node versions: the items of a page. */
  public static String writeNodes(List<RecordVersion<MemoryNode>> versions) {
    ArrayNode out = RecallJson.MAPPER.createArrayNode();
    versions.forEach(v -> out.add(version("node", v)));
    return out.toString();
  }

  private static ObjectNode version(String name, RecordVersion<?> v) {
    ObjectNode out = RecallJson.MAPPER.createObjectNode();
    out.set(name, RecallJson.tree(v.value()));
    out.put("version", v.version());
    out.put("at", v.at().toString());
    out.put("removed", v.removed());
    return out;
  }

  /**
   * A recall request in the form {@link #readQuery} reads: every knob of {@code query} is written,
   * so the server answers the same query an embedded call would.
   */
  public static String writeQuery(RecallQuery query) {
    ObjectNode out = RecallJson.MAPPER.createObjectNode();
    out.put("query", query.text());
    out.put("mode", query.mode().wireName());
    out.put("k", query.k());
    query.weights().ifPresent(w -> out.set("weights", RecallJson.tree(w)));
    out.put("seeds", query.seeds());
    out.put("hops", query.hops());
    out.put("decay", query.decay());
    out.put("threshold", query.threshold());
    out.put("restart", query.restart());
    out.put("lexical_share", query.lexicalShare());
    out.put("session_cap", query.sessionCap());
    out.put("context_weight", query.contextWeight());
    out.put("length_norm", query.lengthNorm());
    query.asOf().ifPresent(d -> out.put("as_of", d.toString()));
    return out.toString();
  }

  /** An ingest request in the form {@link #readIngest} reads. */
  public static String writeIngest(String pack, List<SourceDocument> documents) {
    ObjectNode out = RecallJson.MAPPER.createObjectNode();
    out.put("pack", pack);
    ArrayNode docs = out.putArray("documents");
    documents.forEach(d -> docs.addObject().put("path", d.path()).put("text", d.text()));
    return out.toString();
  }

  // ---------------------------------------------------------------- reading

  /**
   * Reads a node whose id is {@code id} from {@code {"type": ..., "content": ..., ...}}; absent
   * weights take the defaults of {@link MemoryNode#builder}.
   *
   * @throws InvalidRequestException naming the offending member
   */
  public static MemoryNode readNode(String id, String json) {
    JsonNode in = object(json, NODE_FIELDS);
    MemoryNode.Builder b =
        MemoryNode.builder(id, requireString(in, "type"), requireString(in, "content"));
    JsonNode attributes = in.get("attributes");
    if (attributes != null) {
      if (!attributes.isObject()) {
        throw new InvalidRequestException(
            "attributes", "expected an object of strings, found " + attributes.getNodeType());
      }
      for (Iterator<Map.Entry<String, JsonNode>> it = attributes.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> a = it.next();
        if (!a.getValue().isTextual()) {
          throw new InvalidRequestException(
              "attributes." + a.getKey(), "expected a string, found " + a.getValue().getNodeType());
        }
        b.attribute(a.getKey(), a.getValue().asText());
      }
    }
    number(in, "importance", b::importance);
    number(in, "risk", b::risk);
    number(in, "novelty", b::novelty);
    number(in, "confidence", b::confidence);
    number(in, "decay_factor", b::decayFactor);
    JsonNode usage = in.get("usage_count");
    if (usage != null) {
      if (!usage.canConvertToLong() || !usage.isIntegralNumber()) {
        throw new InvalidRequestException("usage_count", "expected an integer, found " + usage);
      }
      b.usageCount(usage.asLong());
    }
    if (in.has("source_ref")) {
      b.sourceRef(evidence(in.get("source_ref")));
    }
    if (in.has("subject_ids")) {
      b.subjectIds(strings(in.get("subject_ids"), "subject_ids"));
    }
    return b.build();
  }

  /**
   * Reads an edge from {@code {"from": ..., "edge_type": ..., "to": ..., "weight": 0.8, ...}};
   * {@code weight} and {@code confidence} default to 1, {@code bidirectional} to false.
   *
   * @throws InvalidRequestException naming the offending member
   */
  public static MemoryEdge readEdge(String json) {
    JsonNode in = object(json, EDGE_FIELDS);
    double[] w = {1, 1};
    number(in, "weight", v -> w[0] = v);
    number(in, "confidence", v -> w[1] = v);
    boolean both = false;
    JsonNode bidirectional = in.get("bidirectional");
    if (bidirectional != null) {
      if (!bidirectional.isBoolean()) {
        throw new InvalidRequestException(
            "bidirectional", "expected true or false, found " + bidirectional);
      }
      both = bidirectional.asBoolean();
    }
    MemoryEdge e =
        new MemoryEdge(
            requireString(in, "from"),
            requireString(in, "to"),
            requireString(in, "edge_type"),
            w[0],
            w[1],
            both,
            Optional.empty());
    return in.has("source_ref") ? e.withSource(evidence(in.get("source_ref"))) : e;
  }

  /**
   * Reads a recall request: {@code {"query": "...", "mode": "hybrid", "k": 10, "weights":
   * {"semantic": 0.6}, "seeds": 3, "hops": 2, "decay": 0.7, "threshold": 0.05, "restart": 0.15,
   * "lexical_share": 0.5, "session_cap": 2, "context_weight": 0.3, "length_norm": 0.5, "as_of":
   * "2024-05-13"}}. Only {@code query} is required; {@code mode} defaults to {@code hybrid}, the
   * rest to the defaults of {@link RecallQuery#builder}; weights not named in {@code weights} are
   * those of {@link ScoreWeights#DEFAULT}.
   *
   * @throws InvalidRequestException naming the offending member
   */
  public static RecallQuery readQuery(String json) {
    JsonNode in = object(json, QUERY_FIELDS);
    RecallMode mode =
        in.has("mode") ? RecallMode.parse(requireString(in, "mode")) : RecallMode.HYBRID;
    RecallQuery.Builder b = RecallQuery.builder(requireString(in, "query"), mode);
    integer(in, "k", b::k);
    integer(in, "seeds", b::seeds);
    integer(in, "hops", b::hops);
    number(in, "decay", b::decay);
    number(in, "threshold", b::threshold);
    number(in, "restart", b::restart);
    number(in, "lexical_share", b::lexicalShare);
    integer(in, "session_cap", b::sessionCap);
    number(in, "context_weight", b::contextWeight);
    number(in, "length_norm", b::lengthNorm);
    if (in.has("as_of")) {
      String day = requireString(in, "as_of");
      try {
        b.asOf(java.time.LocalDate.parse(day));
      } catch (java.time.format.DateTimeParseException e) {
        throw new InvalidRequestException(
            "as_of", "expected a day as YYYY-MM-DD, found '" + day + "'");
      }
    }
    JsonNode weights = in.get("weights");
    if (weights != null) {
      if (!weights.isObject()) {
        throw new InvalidRequestException(
            "weights", "expected an object of numbers, found " + weights.getNodeType());
      }
      Map<String, Double> w = new java.util.LinkedHashMap<>(ScoreWeights.DEFAULT.asMap());
      for (Iterator<Map.Entry<String, JsonNode>> it = weights.fields(); it.hasNext(); ) {
        Map.Entry<String, JsonNode> e = it.next();
        String field = "weights." + e.getKey();
        if (!w.containsKey(e.getKey())) {
          throw new InvalidRequestException(
              field, "unknown weight; expected only " + String.join(", ", w.keySet()));
        }
        if (!e.getValue().isNumber()) {
          throw new InvalidRequestException(field, "expected a number, found " + e.getValue());
        }
        w.put(e.getKey(), e.getValue().asDouble());
      }
      b.weights(ScoreWeights.of(w));
    }
    return b.build();
  }

  /**
   * Reads an ingest request: {@code {"pack": "markdown:contract", "documents": [{"path":
   * "01_supply.md", "text": "..."}]}}. Each {@code path} is what evidence references will name.
   *
   * @throws InvalidRequestException naming the offending member, {@code pack} if there is no such
   *     pack
   */
  public static IngestRequest readIngest(String json) {
    JsonNode in = object(json, Set.of("pack", "documents"));
    DomainPack pack = DomainPacks.named(requireString(in, "pack"));
    JsonNode docs = in.get("documents");
    if (docs == null || !docs.isArray() || docs.isEmpty()) {
      throw new InvalidRequestException(
          "documents",
          "expected a non-empty array of {\"path\": ..., \"text\": ...}, found "
              + (docs == null
                  ? "nothing"
                  : docs.isArray() ? "an empty array" : docs.getNodeType().toString()));
    }
    List<SourceDocument> out = new ArrayList<>(docs.size());
    for (int i = 0; i < docs.size(); i++) {
      String at = "documents[" + i + "]";
      JsonNode d = docs.get(i);
      if (!d.isObject()) {
        throw new InvalidRequestException(at, "expected an object, found " + d.getNodeType());
      }
      for (Iterator<String> it = d.fieldNames(); it.hasNext(); ) {
        String name = it.next();
        if (!name.equals("path") && !name.equals("text") && !name.equals("subject_ids")) {
          throw new InvalidRequestException(
              at + "." + name, "unknown member; expected only path, text, subject_ids");
        }
      }
      String path = requireString(d, "path", at + ".path");
      if (path.isBlank()) {
        throw new InvalidRequestException(at + ".path", "expected a file name, found nothing");
      }
      List<String> subjects =
          d.has("subject_ids") ? strings(d.get("subject_ids"), at + ".subject_ids") : List.of();
      out.add(new SourceDocument(path, requireString(d, "text", at + ".text"), subjects));
    }
    return new IngestRequest(pack, out);
  }

  /**
   * Reads a recall result as {@link #write} wrote it, or as the server's recall route answers (the
   * same members plus those {@link PalaceWire#writeRecall} adds, which are left out here): the
   * reverse a remote client needs.
   *
   * @throws InvalidRequestException naming the member that does not read
   */
  public static RecallResult readResult(String json) {
    JsonNode in = tree(json);
    if (in instanceof ObjectNode o) {
      o.remove(PALACE_MEMBERS);
    }
    return RecallJson.read(in, RecallResult.class, "result");
  }

  /** The members a recall through the palace adds to a result ({@link PalaceWire#writeRecall}). */
  private static final List<String> PALACE_MEMBERS =
      List.of("activation_snapshot", "retrieved_memories", "routes", "reinforced");

  /**
   * Reads the reports of an ingest (a JSON array) as {@link #write} wrote them.
   *
   * @throws InvalidRequestException naming the member that does not read
   */
  public static List<IngestReport> readIngestReports(String json) {
    JsonNode in = tree(json);
    List<IngestReport> out = new ArrayList<>(in.size());
    in.forEach(r -> out.add(RecallJson.read(r, IngestReport.class, "reports")));
    return out;
  }

  /**
   * Reads one node version as {@link #writeNode(RecordVersion)} wrote it.
   *
   * @throws InvalidRequestException naming the member that does not read
   */
  public static RecordVersion<MemoryNode> readNodeVersion(String json) {
    JsonNode in = tree(json);
    return new RecordVersion<>(
        RecallJson.read(in.path("node"), MemoryNode.class, "node"),
        in.path("version").asInt(),
        java.time.Instant.parse(in.path("at").asText()),
        in.path("removed").asBoolean());
  }

  private static JsonNode tree(String json) {
    try {
      return RecallJson.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException("body", "not valid JSON: " + e.getOriginalMessage());
    }
  }

  private static JsonNode object(String json, Set<String> allowed) {
    JsonNode in;
    try {
      in = RecallJson.MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new InvalidRequestException("body", "not valid JSON: " + e.getOriginalMessage());
    }
    if (in == null || !in.isObject()) {
      throw new InvalidRequestException("body", "expected a JSON object");
    }
    for (Iterator<String> it = in.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!allowed.contains(name)) {
        throw new InvalidRequestException(
            name,
            "unknown member; expected only "
                + String.join(", ", allowed.stream().sorted().toList()));
      }
    }
    return in;
  }

  /** An array of strings; the checks of each string are the caller's. */
  private static List<String> strings(JsonNode v, String field) {
    if (!v.isArray()) {
      throw new InvalidRequestException(
          field, "expected an array of strings, found " + v.getNodeType());
    }
    List<String> out = new ArrayList<>(v.size());
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isTextual()) {
        throw new InvalidRequestException(
            field + "[" + i + "]", "expected a string, found " + v.get(i).getNodeType());
      }
      out.add(v.get(i).asText());
    }
    return out;
  }

  private static String requireString(JsonNode in, String name) {
    return requireString(in, name, name);
  }

  private static String requireString(JsonNode in, String name, String field) {
    JsonNode v = in.get(name);
    if (v == null || v.isNull()) {
      throw new InvalidRequestException(field, "required, found nothing");
    }
    if (!v.isTextual()) {
      throw new InvalidRequestException(field, "expected a string, found " + v.getNodeType());
    }
    return v.asText();
  }

  private interface DoubleSetter {
    void set(double v);
  }

  private static void number(JsonNode in, String name, DoubleSetter set) {
    JsonNode v = in.get(name);
    if (v != null) {
      if (!v.isNumber()) {
        throw new InvalidRequestException(name, "expected a number, found " + v);
      }
      set.set(v.asDouble());
    }
  }

  private static void integer(JsonNode in, String name, Consumer<Integer> set) {
    JsonNode v = in.get(name);
    if (v != null) {
      if (!v.isIntegralNumber() || !v.canConvertToInt()) {
        throw new InvalidRequestException(name, "expected an integer, found " + v);
      }
      set.accept(v.asInt());
    }
  }

  private static EvidenceRef evidence(JsonNode ref) {
    if (!ref.isObject()) {
      throw new InvalidRequestException(
          "source_ref", "expected an object with a path, found " + ref.getNodeType());
    }
    for (Iterator<String> it = ref.fieldNames(); it.hasNext(); ) {
      String name = it.next();
      if (!Set.of("path", "section", "lines", "chars").contains(name)) {
        throw new InvalidRequestException(
            "source_ref." + name, "unknown member; expected only chars, lines, path, section");
      }
    }
    EvidenceRef e = EvidenceRef.of(requireString(ref, "path", "source_ref.path"));
    Optional<String> section =
        ref.has("section")
            ? Optional.of(requireString(ref, "section", "source_ref.section"))
            : Optional.empty();
    return new EvidenceRef(e.path(), section, span(ref, "lines"), span(ref, "chars"));
  }

  private static Optional<EvidenceRef.Span> span(JsonNode ref, String name) {
    JsonNode v = ref.get(name);
    if (v == null) {
      return Optional.empty();
    }
    String field = "source_ref." + name;
    JsonNode start = v.get("start");
    JsonNode end = v.get("end");
    if (!v.isObject()
        || v.size() != 2
        || start == null
        || end == null
        || !start.canConvertToInt()
        || !start.isIntegralNumber()
        || !end.canConvertToInt()
        || !end.isIntegralNumber()) {
      throw new InvalidRequestException(
          field, "expected {\"start\": integer, \"end\": integer}, found " + v);
    }
    try {
      return Optional.of(new EvidenceRef.Span(start.asInt(), end.asInt()));
    } catch (InvalidRequestException e) {
      throw new InvalidRequestException(field, e.getMessage().substring("span: ".length()));
    }
  }
}
