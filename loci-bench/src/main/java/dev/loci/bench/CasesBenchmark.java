package dev.loci.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.PathStep;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.RecallResult;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Structured recall cases: each case names a query, the node ids that must come back as evidence,
 * how many of them at least, and optionally the edge types the evidence paths must use. Every case
 * is asked in every mode; a case passes in a mode when at least {@code minimum_evidence_matches} of
 * its evidence ids are among the top k and the paths that reach them use every required edge type.
 *
 * <p>The cases file is JSON: an object with a {@code cases} array (or the array itself) of
 *
 * <pre>{@code
 * {"case_id": "contract-late-delivery", "query": "What is the penalty for a late delivery?",
 *  "document": "01_supply_agreement.md", "pack": "markdown:contract",
 *  "expectation": {"evidence_node_ids": ["01_supply_agreement:3", "01_supply_agreement:4"],
 *                  "minimum_evidence_matches": 2, "required_edge_types": ["exception_to"]}}
 * }</pre>
 *
 * <p>{@code document} (a file of the documents directory; absent means every file of it, in one
 * namespace) and {@code pack} (absent means the run's pack) are optional, as are {@code
 * minimum_evidence_matches} (default: all) and {@code required_edge_types}. The bundled demo's
 * questions are stored in this format ({@code dev/loci/recall/demo/cases.json}). Not thread-safe.
 */
public final class CasesBenchmark {
  private CasesBenchmark() {}

  /**
   * One case.
   *
   * @param id its {@code case_id}
   * @param query the question
   * @param document the file it asks about, or empty for every file
   * @param pack the pack that reads it, or empty for the run's
   * @param evidence the node ids expected as evidence
   * @param minimum how many of them must be found
   * @param edgeTypes edge types the evidence paths must use
   */
  record Case(
      String id,
      String query,
      Optional<String> document,
      Optional<String> pack,
      List<String> evidence,
      int minimum,
      List<String> edgeTypes) {
    Case {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(query, "query");
      evidence = List.copyOf(evidence);
      edgeTypes = List.copyOf(edgeTypes);
      if (evidence.isEmpty()) {
        throw new IllegalArgumentException("case " + id + ": expected evidence_node_ids");
      }
      if (minimum < 1 || minimum > evidence.size()) {
        throw new IllegalArgumentException(
            "case "
                + id
                + ": expected minimum_evidence_matches of 1 to "
                + evidence.size()
                + ", found "
                + minimum);
      }
    }
  }

  /**
   * What one mode did with one case.
   *
   * @param found the evidence ids among the top k
   * @param edgeTypes the edge types on the paths that reached them
   * @param passed whether enough were found through every required edge type
   */
  record Outcome(List<String> found, Set<String> edgeTypes, boolean passed) {}

  /**
   * What to run.
   *
   * @param casesFile the cases
   * @param docs the documents directory
   * @param pack the default pack's name
   * @param modes the modes to ask
   * @param k how many items each recall returns
   * @param embedding the embedding provider
   * @param workDir where the scratch data directory is made
   */
  public record Options(
      Path casesFile,
      Path docs,
      String pack,
      List<RecallMode> modes,
      int k,
      EmbeddingProvider embedding,
      Path workDir) {
    /** Checks and copies. */
    public Options {
      Objects.requireNonNull(casesFile, "casesFile");
      Objects.requireNonNull(docs, "docs");
      DomainPacks.named(pack);
      modes = List.copyOf(modes);
      if (k < 1) {
        throw new IllegalArgumentException("expected k of at least 1, found " + k);
      }
      Objects.requireNonNull(embedding, "embedding");
      Objects.requireNonNull(workDir, "workDir");
    }
  }

  /**
   * A run's results.
   *
   * @param options what ran
   * @param cases the cases, in file order
   * @param outcomes per case id, per mode wire name
   */
  public record Report(
      Options options, List<Case> cases, Map<String, Map<String, Outcome>> outcomes) {

    /** A table of cases by mode ({@code PASS 2/2} or {@code fail 1/2}), then pass and hit rates. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder("## Recall cases: ").append(options.casesFile());
      b.append("\n\n").append(cases.size()).append(" cases, k ").append(options.k());
      b.append(", default pack ").append(options.pack()).append(".\n\n");
      List<String> head = new ArrayList<>(List.of("case"));
      options.modes().forEach(m -> head.add(m.wireName()));
      Format.row(b, head.toArray(String[]::new));
      Format.row(b, head.stream().map(h -> "---").toArray(String[]::new));
      for (Case c : cases) {
        List<String> row = new ArrayList<>(List.of(c.id()));
        for (RecallMode m : options.modes()) {
          Outcome o = outcomes.get(c.id()).get(m.wireName());
          row.add((o.passed() ? "PASS " : "fail ") + o.found().size() + "/" + c.evidence().size());
        }
        Format.row(b, row.toArray(String[]::new));
      }
      List<String> passed = new ArrayList<>(List.of("**passed**"));
      List<String> hits = new ArrayList<>(List.of("**evidence hit rate**"));
      for (RecallMode m : options.modes()) {
        passed.add(passed(m) + "/" + cases.size());
        hits.add(Format.fixed(hitRate(m), 3));
      }
      Format.row(b, passed.toArray(String[]::new));
      Format.row(b, hits.toArray(String[]::new));
      return b.append('\n').toString();
    }

    /** How many cases passed in {@code mode}. */
    int passed(RecallMode mode) {
      return (int)
          cases.stream().filter(c -> outcomes.get(c.id()).get(mode.wireName()).passed()).count();
    }

    /** The mean share of each case's evidence ids found in {@code mode}. */
    double hitRate(RecallMode mode) {
      return cases.stream()
          .mapToDouble(
              c ->
                  (double) outcomes.get(c.id()).get(mode.wireName()).found().size()
                      / c.evidence().size())
          .average()
          .orElse(0);
    }

    /** Every case and outcome as JSON. */
    public String toJson() {
      Map<String, Object> root = new LinkedHashMap<>();
      root.put("benchmark", "cases");
      root.put("cases_file", options.casesFile().toString());
      root.put("k", options.k());
      Map<String, Object> modes = new LinkedHashMap<>();
      for (RecallMode m : options.modes()) {
        modes.put(m.wireName(), Map.of("passed", passed(m), "evidence_hit_rate", hitRate(m)));
      }
      root.put("modes", modes);
      List<Object> out = new ArrayList<>();
      for (Case c : cases) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("case_id", c.id());
        o.put("query", c.query());
        o.put("evidence_node_ids", c.evidence());
        o.put("minimum_evidence_matches", c.minimum());
        o.put("required_edge_types", c.edgeTypes());
        Map<String, Object> byMode = new LinkedHashMap<>();
        outcomes
            .get(c.id())
            .forEach(
                (mode, r) ->
                    byMode.put(
                        mode,
                        Map.of(
                            "passed", r.passed(),
                            "found", r.found(),
                            "edge_types", List.copyOf(r.edgeTypes()))));
        o.put("modes", byMode);
        out.add(o);
      }
      root.put("cases", out);
      return JsonFile.write(root);
    }
  }

  /**
   * Reads a cases file.
   *
   * @throws IllegalArgumentException naming the file and the case if it does not hold cases
   */
  static List<Case> read(Path file) {
    JsonNode root = JsonFile.read(file);
    JsonNode cases = root.isObject() ? root.path("cases") : root;
    if (!cases.isArray() || cases.isEmpty()) {
      throw new IllegalArgumentException(file + ": expected a non-empty array of cases");
    }
    List<Case> out = new ArrayList<>();
    Set<String> ids = new LinkedHashSet<>();
    for (JsonNode c : cases) {
      String id = c.path("case_id").asText("");
      String query = c.path("query").asText("");
      if (id.isBlank() || query.isBlank()) {
        throw new IllegalArgumentException(
            file + ": every case needs case_id and query, found " + c);
      }
      if (!ids.add(id)) {
        throw new IllegalArgumentException(file + ": case_id " + id + " repeats");
      }
      JsonNode e = c.path("expectation");
      List<String> evidence = new ArrayList<>();
      e.path("evidence_node_ids").forEach(n -> evidence.add(n.asText()));
      JsonNode min = e.has("minimum_evidence_matches") ? e : c;
      List<String> edges = new ArrayList<>();
      (e.has("required_edge_types") ? e : c)
          .path("required_edge_types")
          .forEach(n -> edges.add(n.asText()));
      out.add(
          new Case(
              id,
              query,
              text(c, "document"),
              text(c, "pack"),
              evidence,
              min.path("minimum_evidence_matches").asInt(evidence.size()),
              edges));
    }
    return out;
  }

  private static Optional<String> text(JsonNode node, String field) {
    JsonNode v = node.get(field);
    return v != null && v.isTextual() && !v.asText().isBlank()
        ? Optional.of(v.asText())
        : Optional.empty();
  }

  /**
   * Ingests the documents the cases need and asks every case in every mode.
   *
   * @throws IllegalArgumentException if the cases file is not valid or names a missing document
   */
  public static Report run(Options options, PrintStream log) {
    List<Case> cases = read(options.casesFile());
    Map<String, Map<String, Outcome>> outcomes = new LinkedHashMap<>();
    Machine.start("cases", options.workDir(), log);
    try (ScratchDir dir = ScratchDir.create(options.workDir(), "cases");
        Loci loci = Loci.builder().dataDir(dir.path()).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci, options.embedding());
      Map<String, Namespace> ingested = new LinkedHashMap<>();
      for (Case c : cases) {
        Namespace ns = ingest(recall, options, c, ingested, log);
        Map<String, Outcome> byMode = new LinkedHashMap<>();
        for (RecallMode m : options.modes()) {
          RecallResult r =
              recall.recall(ns, RecallQuery.builder(c.query(), m).k(options.k()).build());
          byMode.put(m.wireName(), outcome(c, r));
        }
        outcomes.put(c.id(), byMode);
      }
    }
    return new Report(options, cases, outcomes);
  }

  /** Judges one result against a case. */
  static Outcome outcome(Case c, RecallResult r) {
    List<String> found = new ArrayList<>();
    Set<String> edges = new LinkedHashSet<>();
    for (RecallItem item : r.items()) {
      if (c.evidence().contains(item.node().id())) {
        found.add(item.node().id());
        for (PathStep s : item.path().steps()) {
          if (!s.via().equals(PathStep.SEED)) {
            edges.add(s.via());
          }
        }
      }
    }
    boolean passed = found.size() >= c.minimum() && edges.containsAll(c.edgeTypes());
    return new Outcome(found, edges, passed);
  }

  private static Namespace ingest(
      RecallMemory recall,
      Options options,
      Case c,
      Map<String, Namespace> ingested,
      PrintStream log) {
    String pack = c.pack().orElse(options.pack());
    String key = c.document().orElse("*") + " " + pack;
    Namespace known = ingested.get(key);
    if (known != null) {
      return known;
    }
    Namespace ns = Namespace.of("bench.cases.d" + ingested.size());
    List<Path> files = new ArrayList<>();
    if (c.document().isPresent()) {
      Path file = options.docs().resolve(c.document().get());
      if (!Files.isRegularFile(file)) {
        throw new IllegalArgumentException(
            "case " + c.id() + ": no document " + file + " in " + options.docs());
      }
      files.add(file);
    } else {
      try (Stream<Path> all = Files.list(options.docs())) {
        all.filter(Files::isRegularFile)
            .filter(p -> !p.equals(options.casesFile().toAbsolutePath().normalize()))
            .filter(p -> !p.getFileName().toString().endsWith(".json"))
            .sorted()
            .forEach(files::add);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    for (Path f : files) {
      recall.ingest(ns, DomainPacks.named(pack), f, RecallMemory.Progress.NONE);
      log.println(
          String.format(Locale.ROOT, "cases: ingested %s with %s into %s", f, pack, ns.value()));
    }
    ingested.put(key, ns);
    return ns;
  }
}
