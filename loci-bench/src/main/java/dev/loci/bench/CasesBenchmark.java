package dev.loci.bench;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NotFoundException;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.LifecycleState;
import dev.loci.recall.MemoryPalace;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
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
 * Structured recall cases: each case names a query and what the recall must give back, and is asked
 * in every mode through the memory palace. A case passes in a mode when every family of checks it
 * expects passes; each family is also reported as its own hit rate per mode.
 *
 * <p>The cases file is JSON: an object with a {@code cases} array (or the array itself) of
 *
 * <pre>{@code
 * {"case_id": "contract-late-delivery", "query": "What is the penalty for a late delivery?",
 *  "document": "01_supply_agreement.md", "pack": "markdown:contract",
 *  "setup": [{"feedback": {"route": ["a", "b"], "useful": true}}, {"advance": "P30D"},
 *            {"sweep": true}],
 *  "expectation": {"evidence_node_ids": ["01_supply_agreement:3", "01_supply_agreement:4"],
 *                  "minimum_evidence_matches": 2, "required_edge_types": ["exception_to"]}}
 * }</pre>
 *
 * <p>{@code document} (a file of the documents directory; absent means every file of it, in one
 * namespace) and {@code pack} (absent means the run's pack) are optional. {@code setup} (optional)
 * is done in order once before the case is asked: {@code feedback} (the body of {@code POST
 * feedback}), {@code advance} (moves the run's clock, which starts at {@value #EPOCH}, by an
 * ISO-8601 duration) or {@code sweep}; a case with a setup gets a namespace of its own. The
 * expectation fields, by family:
 *
 * <ul>
 *   <li>evidence: {@code evidence_node_ids}, {@code minimum_evidence_matches} (default: all),
 *       {@code required_edge_types} the evidence paths must use;
 *   <li>path: {@code path} (steps of {@code node_id} and {@code via_edge_type}, either may be left
 *       out), {@code path_scope} ({@code best_path}: the path of the top-ranked item reached
 *       through an edge, or of the top item when all are seeds; {@code any}, the default: any
 *       item's) and {@code match_mode} ({@code prefix}, {@code subsequence}, the default, or {@code
 *       exact});
 *   <li>structure: {@code required_semantic_roles} (node id to roles, or a list of roles some
 *       returned node has), {@code required_contradiction_pairs} (pairs of returned node ids, one
 *       listing the other in {@code contradicts}), {@code required_scenario_tags} and {@code
 *       required_symbolic_tags} (each on some returned node);
 *   <li>trace: {@code activation_trace} (steps with {@code node_id}, {@code hop}, {@code is_seed},
 *       {@code edge_type}, any left out, matched in order), {@code required_trace_stop_reasons},
 *       {@code min_activation_trace_length} and {@code max_activation_trace_length};
 *   <li>snapshot: {@code activation_snapshot} (node ids, or node id to the least activation);
 *   <li>route: {@code route} (the steps of a stored route the recall replays);
 *   <li>space: {@code required_space_ids} (spaces the retrieved memories are located in);
 *   <li>lifecycle: {@code required_lifecycle_states} (node id to its state after the recall).
 * </ul>
 *
 * <p>The bundled demo's questions are stored in this format ({@code
 * dev/loci/recall/demo/cases.json}). Not thread-safe.
 */
public final class CasesBenchmark {
  /** Where the run's clock starts. */
  static final String EPOCH = "2026-01-01T00:00:00Z";

  private CasesBenchmark() {}

  /**
   * One case.
   *
   * @param id its {@code case_id}
   * @param query the question
   * @param document the file it asks about, or empty for every file
   * @param pack the pack that reads it, or empty for the run's
   * @param evidence the node ids expected as evidence; may be empty when the case expects something
   *     else
   * @param minimum how many of them must be found
   * @param edgeTypes edge types the evidence paths must use
   * @param expectation the other expectations
   * @param setup what is done before the case is asked
   */
  record Case(
      String id,
      String query,
      Optional<String> document,
      Optional<String> pack,
      List<String> evidence,
      int minimum,
      List<String> edgeTypes,
      CaseExpectation expectation,
      List<CaseExpectation.Action> setup) {
    Case {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(query, "query");
      evidence = List.copyOf(evidence);
      edgeTypes = List.copyOf(edgeTypes);
      Objects.requireNonNull(expectation, "expectation");
      setup = List.copyOf(setup);
      if (evidence.isEmpty() && expectation.families().isEmpty()) {
        throw new IllegalArgumentException(
            "case " + id + ": expected evidence_node_ids or another expectation");
      }
      if (!evidence.isEmpty() && (minimum < 1 || minimum > evidence.size())) {
        throw new IllegalArgumentException(
            "case "
                + id
                + ": expected minimum_evidence_matches of 1 to "
                + evidence.size()
                + ", found "
                + minimum);
      }
    }

    /** The families this case checks, in report order. */
    List<String> families() {
      List<String> out = new ArrayList<>();
      if (!evidence.isEmpty()) {
        out.add("evidence");
      }
      out.addAll(expectation.families());
      return out;
    }
  }

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
      Options options, List<Case> cases, Map<String, Map<String, CaseJudge.Outcome>> outcomes) {

    /**
     * A table of cases by mode ({@code PASS 2/2} or {@code fail 1/2 (misses)}), then the pass count
     * and the hit rate of every family some case expects.
     */
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
          CaseJudge.Outcome o = outcomes.get(c.id()).get(m.wireName());
          long ok = o.families().values().stream().filter(v -> v).count();
          row.add(
              (o.passed() ? "PASS " : "fail ")
                  + (c.evidence().isEmpty()
                      ? ok + "/" + o.families().size()
                      : o.found().size() + "/" + c.evidence().size()));
        }
        Format.row(b, row.toArray(String[]::new));
      }
      List<String> passed = new ArrayList<>(List.of("**passed**"));
      for (RecallMode m : options.modes()) {
        passed.add(passed(m) + "/" + cases.size());
      }
      Format.row(b, passed.toArray(String[]::new));
      if (cases.stream().anyMatch(c -> !c.evidence().isEmpty())) {
        List<String> hits = new ArrayList<>(List.of("**evidence hit rate**"));
        options.modes().forEach(m -> hits.add(Format.fixed(hitRate(m), 3)));
        Format.row(b, hits.toArray(String[]::new));
      }
      for (String family : families()) {
        if (family.equals("evidence")) {
          continue;
        }
        List<String> row = new ArrayList<>(List.of("**" + family + " hit rate**"));
        for (RecallMode m : options.modes()) {
          row.add(Format.fixed(familyRate(family, m), 3));
        }
        Format.row(b, row.toArray(String[]::new));
      }
      return b.append('\n').toString();
    }

    /** The families some case expects, in report order. */
    List<String> families() {
      Set<String> used = new LinkedHashSet<>();
      cases.forEach(c -> used.addAll(c.families()));
      return CaseExpectation.FAMILIES.stream().filter(used::contains).toList();
    }

    /** How many cases passed in {@code mode}. */
    int passed(RecallMode mode) {
      return (int)
          cases.stream().filter(c -> outcomes.get(c.id()).get(mode.wireName()).passed()).count();
    }

    /** The mean share of each case's evidence ids found in {@code mode}, over cases with any. */
    double hitRate(RecallMode mode) {
      return cases.stream()
          .filter(c -> !c.evidence().isEmpty())
          .mapToDouble(
              c ->
                  (double) outcomes.get(c.id()).get(mode.wireName()).found().size()
                      / c.evidence().size())
          .average()
          .orElse(0);
    }

    /**
     * The share of the cases expecting {@code family} whose {@code family} passed in {@code mode}.
     */
    double familyRate(String family, RecallMode mode) {
      return cases.stream()
          .map(c -> outcomes.get(c.id()).get(mode.wireName()).families().get(family))
          .filter(Objects::nonNull)
          .mapToDouble(ok -> ok ? 1 : 0)
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
        Map<String, Object> mode = new LinkedHashMap<>();
        mode.put("passed", passed(m));
        mode.put("evidence_hit_rate", hitRate(m));
        Map<String, Object> rates = new LinkedHashMap<>();
        families().forEach(f -> rates.put(f, familyRate(f, m)));
        mode.put("family_hit_rates", rates);
        modes.put(m.wireName(), mode);
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
        o.put("families", c.families());
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
                            "edge_types", List.copyOf(r.edgeTypes()),
                            "families", r.families(),
                            "misses", r.misses(),
                            "paths", r.paths())));
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
              edges,
              CaseExpectation.read(id, e),
              CaseExpectation.readSetup(id, c.path("setup"))));
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
   * Ingests the documents the cases need, does each case's setup and asks it in every mode.
   *
   * @throws IllegalArgumentException if the cases file is not valid or names a missing document
   */
  public static Report run(Options options, PrintStream log) {
    List<Case> cases = read(options.casesFile());
    Map<String, Map<String, CaseJudge.Outcome>> outcomes = new LinkedHashMap<>();
    Machine.start("cases", options.workDir(), log);
    BenchClock clock = new BenchClock(Instant.parse(EPOCH));
    try (ScratchDir dir = ScratchDir.create(options.workDir(), "cases");
        Loci loci =
            Loci.builder().dataDir(dir.path()).durability(Durability.none()).clock(clock).open()) {
      RecallMemory recall = RecallMemory.of(loci, options.embedding());
      MemoryPalace palace = MemoryPalace.of(loci, recall);
      Map<String, Namespace> ingested = new LinkedHashMap<>();
      for (Case c : cases) {
        Namespace ns = ingest(recall, options, c, ingested, log);
        for (CaseExpectation.Action a : c.setup()) {
          a.feedback().ifPresent(f -> palace.feedback(ns, f));
          a.advance().ifPresent(clock::advance);
          if (a.sweep()) {
            palace.sweep(ns);
          }
        }
        Map<String, CaseJudge.Outcome> byMode = new LinkedHashMap<>();
        for (RecallMode m : options.modes()) {
          var r =
              palace.recall(ns, RecallQuery.builder(c.query(), m).k(options.k()).build(), false);
          byMode.put(m.wireName(), CaseJudge.judge(c, r, id -> state(palace, ns, id)));
        }
        outcomes.put(c.id(), byMode);
      }
    }
    return new Report(options, cases, outcomes);
  }

  private static Optional<LifecycleState> state(MemoryPalace palace, Namespace ns, String id) {
    try {
      return Optional.of(palace.memory(ns, id).lifecycle().state());
    } catch (NotFoundException e) {
      return Optional.empty();
    }
  }

  private static Namespace ingest(
      RecallMemory recall,
      Options options,
      Case c,
      Map<String, Namespace> ingested,
      PrintStream log) {
    String pack = c.pack().orElse(options.pack());
    String key = c.document().orElse("*") + " " + pack + (c.setup().isEmpty() ? "" : " " + c.id());
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
