package dev.loci.mcp.internal;

import static dev.loci.mcp.internal.Schemas.array;
import static dev.loci.mcp.internal.Schemas.bool;
import static dev.loci.mcp.internal.Schemas.integer;
import static dev.loci.mcp.internal.Schemas.namespace;
import static dev.loci.mcp.internal.Schemas.object;
import static dev.loci.mcp.internal.Schemas.oneOf;
import static dev.loci.mcp.internal.Schemas.optional;
import static dev.loci.mcp.internal.Schemas.required;
import static dev.loci.mcp.internal.Schemas.string;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.govern.EntityWire;
import dev.loci.govern.GovernedMemory;
import dev.loci.govern.GovernedRecall;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.IngestEmbedder;
import dev.loci.recall.IngestReport;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.RecallWire;
import dev.loci.server.RequestLimits;
import dev.loci.server.Role;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The memory-graph tools: {@code recall}, whose items come with their evidence paths rendered
 * compactly, and {@code ingest}, documents read by a domain pack (with the extraction wave the
 * namespace asks for). Requests are read by {@link RecallWire}, as over HTTP, so arguments are
 * checked by the same rules.
 */
public final class RecallTools {
  /** How many items {@code recall} returns unless asked for another number. */
  public static final int DEFAULT_K = 5;

  private static final int MAX_CONTENT = 400;

  private final RecallMemory recall;
  private final RequestLimits limits;
  private final GovernedRecall graph;
  private final IngestEmbedder embedder;

  /**
   * Tools over {@code recall}; a {@code recall} query is held to {@code limits}' {@code
   * recall_query_terms}, by the check the HTTP recall route makes; after an {@code ingest}, {@code
   * graph} runs the extraction wave of each namespace whose {@value
   * GovernedMemory#EXTRACT_ON_INGEST} setting is on, as {@code POST ingest} and {@code loci ingest}
   * do ({@link GovernedRecall#afterIngest}); the ingested nodes' vectors are computed after the
   * tool answers, by {@code embedder}, as after {@code POST ingest}.
   */
  public RecallTools(
      RecallMemory recall, RequestLimits limits, GovernedRecall graph, IngestEmbedder embedder) {
    this.recall = recall;
    this.limits = limits;
    this.graph = graph;
    this.embedder = embedder;
  }

  /** The tools, in the order {@code tools/list} shows them. */
  public List<ToolSpec> tools() {
    List<String> modes = Arrays.stream(RecallMode.values()).map(RecallMode::wireName).toList();
    return List.of(
        new ToolSpec(
            "recall",
            "Recall",
            "Find what memory holds about a question. Each item comes with its score, its"
                + " evidence path (how recall reached it: the seed node, then the edges followed)"
                + " and its sources (file, section, lines), so you can cite and check it. Use"
                + " hybrid (default) for most questions, weighted_graph or ppr when the answer"
                + " depends on linked records (an exception to a clause, a related entity).",
            object(
                true,
                required("query", string("The question or keywords.")),
                optional("mode", oneOf("How to find and rank (default hybrid).", modes)),
                optional(
                    "k",
                    integer(
                        "How many items at most (default " + DEFAULT_K + ").",
                        1,
                        RecallQuery.MAX_K)),
                optional(
                    "as_of",
                    string(
                        "The day the question is asked, YYYY-MM-DD (default today): a day or"
                            + " period the question names (\"last May\", \"two weeks ago\") is"
                            + " read against it and lifts records dated in it.")),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.READ,
            Role.READER,
            this::recall),
        new ToolSpec(
            "ingest",
            "Ingest documents",
            "Turn documents into memory-graph nodes and edges with a domain pack, so recall can"
                + " find them with evidence paths. Re-ingesting an unchanged document writes"
                + " nothing; units gone from an edited one are removed (history kept). Packs: "
                + String.join(", ", DomainPacks.names())
                + ". A namespace whose governance setting "
                + GovernedMemory.EXTRACT_ON_INGEST
                + " is on then gets one extraction wave over what was ingested: its candidates wait"
                + " in the review queue, listed in extraction_waves.",
            object(
                true,
                required(
                    "pack",
                    oneOf("The domain pack that reads the documents.", DomainPacks.names())),
                required(
                    "documents",
                    array(
                        "The documents: the path evidence will cite, and the text.",
                        object(
                            true,
                            required("path", string("The file name evidence cites.")),
                            required("text", string("The document's text."))))),
                optional(
                    "subtree",
                    bool(
                        "Allow writes to namespaces below the target (a conversation pack writes"
                            + " one per conversation).")),
                namespace()),
            Optional.empty(),
            ToolSpec.Effect.WRITE,
            Role.WRITER,
            this::ingest));
  }

  private Reply recall(Call call) {
    Args a = call.args().allowOnly(Set.of("query", "mode", "k", "as_of", Call.NAMESPACE));
    Namespace ns = call.namespace();
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("query", a.raw("query").orElse(null));
    a.raw("mode").ifPresent(m -> request.put("mode", m));
    request.put("k", a.raw("k").orElse(DEFAULT_K));
    a.raw("as_of").ifPresent(d -> request.put("as_of", d));
    RecallQuery query = RecallWire.readQuery(McpJson.compact(McpJson.MAPPER.valueToTree(request)));
    limits.checkRecallQuery(query.text());
    RecallResult result = recall.recall(ns, query);
    return render(ns, result);
  }

  /** The items, each with its path and sources, as text a model reads and as JSON. */
  static Reply render(Namespace ns, RecallResult result) {
    ObjectNode out = McpJson.object();
    out.put("namespace", ns.value());
    out.put("query", result.query());
    out.put("mode", result.mode().wireName());
    ArrayNode items = out.putArray("items");
    StringBuilder text = new StringBuilder();
    if (result.items().isEmpty()) {
      text.append("Nothing recalled from ").append(ns).append(" for: ").append(result.query());
    }
    int rank = 0;
    for (RecallItem it : result.items()) {
      rank++;
      String path = it.path().describe();
      List<String> sources = it.path().sources();
      ObjectNode item = items.addObject();
      item.put("id", it.node().id());
      item.put("type", it.node().type());
      item.put("score", round(it.score()));
      item.put("content", it.node().content());
      item.put("path", path);
      ArrayNode ev = item.putArray("evidence");
      sources.forEach(ev::add);
      text.append(rank)
          .append(". [")
          .append(String.format(Locale.ROOT, "%.3f", it.score()))
          .append("] ")
          .append(it.node().id())
          .append(" (")
          .append(it.node().type())
          .append("): ")
          .append(shorten(it.node().content()))
          .append("\n   path: ")
          .append(path);
      if (!sources.isEmpty()) {
        text.append("\n   evidence: ").append(String.join("; ", sources));
      }
      text.append('\n');
    }
    return new Reply(text.toString().stripTrailing(), out);
  }

  private static double round(double v) {
    return Math.round(v * 1e4) / 1e4;
  }

  private static String shorten(String s) {
    String one = s.replaceAll("\\s+", " ").strip();
    return one.length() > MAX_CONTENT ? one.substring(0, MAX_CONTENT) + "..." : one;
  }

  private Reply ingest(Call call) {
    Args a = call.args().allowOnly(Set.of("pack", "documents", "subtree", Call.NAMESPACE));
    NamespaceScope scope = call.scope(a.bool("subtree").orElse(false));
    Map<String, Object> request = new LinkedHashMap<>();
    request.put("pack", a.raw("pack").orElse(null));
    request.put("documents", a.raw("documents").orElse(null));
    RecallWire.IngestRequest in =
        RecallWire.readIngest(McpJson.compact(McpJson.MAPPER.valueToTree(request)));
    RecallMemory memory = recall.as(call.caller().actor());
    List<IngestReport> reports =
        memory.ingest(scope, in.pack(), in.documents(), RecallMemory.Progress.NONE);
    embedder.embedLater(reports.stream().flatMap(r -> r.namespaces().stream()).toList());
    List<GovernedRecall.IngestWave> waves =
        graph.as(call.caller().actor()).afterIngest(GovernedRecall.ingested(reports));
    ObjectNode out = McpJson.object();
    out.set("reports", McpJson.parse(RecallWire.write(reports)));
    out.set(
        "extraction_waves", McpJson.parse(dev.loci.internal.Json.write(EntityWire.waves(waves))));
    return Reply.json(out);
  }
}
