package dev.loci.bench;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.recall.DomainPacks;
import dev.loci.recall.RecallMemory;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.internal.EnrichedConversationPack;
import dev.loci.recall.internal.EntityLinks;
import dev.loci.recall.internal.Retriever;
import dev.loci.recall.spi.EmbeddingProvider;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
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
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * Recall quality on LoCoMo: each conversation is ingested with the {@code conversation} pack into
 * its own namespace, every question with usable evidence is asked in each Loci mode and of each
 * peer (plain Lucene BM25, SQLite FTS5, an exact dense scan, all over the raw turns), and the
 * ranked turn ids are scored against the gold evidence at turn and session level (see {@link
 * #LEVELS}).
 *
 * <p>Conversations 1-5 are the tuning split (every default knob of this class was chosen on them
 * alone); conversations 6-10 are held out and always reported separately. Run with {@code loci
 * bench locomo --data locomo10.json}. Not thread-safe.
 */
public final class LocomoBenchmark {
  /** The conversations knobs were tuned on; the rest are held out. */
  static final int TUNING_CONVERSATIONS = 5;

  static final String TUNING = "tuning";

  /**
   * How deep Loci's rankings go with entity nodes: entity nodes are connective, not answers, so
   * they are dropped from a ranking of turns, and this many items leave room for them.
   */
  static final int ENTITY_DEPTH = 100;

  static final String HELD_OUT = "held_out";

  /**
   * The levels every system is scored at: turns; the sessions the first k turns reach ({@code
   * session}); and the first k sessions of the session ranking, each session ranked by its best
   * turn ({@code session_ranking}, read from the first {@link Options#rankDepth()} turns).
   */
  static final List<String> LEVELS = List.of("turn", "session", "session_ranking");

  private LocomoBenchmark() {}

  /**
   * What to run.
   *
   * @param data the LoCoMo file, only read
   * @param workDir where the Loci data directory is made (and deleted)
   * @param modes the Loci modes to ask
   * @param ks the cut-offs of the recall metrics
   * @param embeddingName the provider's name in reports
   * @param embedding the provider used by Loci and by the dense peer
   * @param dated whether Loci's turn text carries the session date
   * @param window how many neighbouring turns on each side Loci's turn text carries
   * @param termEdges whether turns of different sessions sharing a rare word are linked
   * @param termMaxTurns the most turns a word may be held by and still link them
   * @param termWeight the weight of a {@code shares_term} edge
   * @param entityEdges whether turns naming the same proper noun are linked through an entity node
   * @param resolveDates whether relative time expressions of a turn are resolved against its
   *     session date and added to its text
   * @param seeds the graph modes' seed count
   * @param hops the graph modes' hop limit
   * @param weights the {@code weighted_graph} weights; empty means the pack's
   * @param lexicalShares how much lexical counts against embedding in fusion, in [0, 1]; with
   *     several, each fusing mode is asked with each (a grid for cross-validation)
   * @param sessionCaps the session caps to ask each mode with (0 is none); a grid like the shares
   * @param contextWeights how much a match in a turn's neighbours counts in the lexical ranking, in
   *     [0, 1]; a grid like the shares
   * @param lengthNorms BM25's length normalization {@code b} of the lexical ranking, in [0, 1]; a
   *     grid like the shares
   * @param conversations which conversations (numbers from 1) to run; empty means all
   * @param densePeer whether the exact dense scan peer runs (it embeds every raw turn)
   */
  public record Options(
      Path data,
      Path workDir,
      List<RecallMode> modes,
      List<Integer> ks,
      String embeddingName,
      EmbeddingProvider embedding,
      boolean dated,
      int window,
      boolean termEdges,
      int termMaxTurns,
      double termWeight,
      boolean entityEdges,
      boolean resolveDates,
      int seeds,
      int hops,
      Optional<ScoreWeights> weights,
      List<Double> lexicalShares,
      List<Integer> sessionCaps,
      List<Double> contextWeights,
      List<Double> lengthNorms,
      Set<Integer> conversations,
      boolean densePeer) {
    /** Checks and copies. */
    public Options {
      Objects.requireNonNull(data, "data");
      Objects.requireNonNull(workDir, "workDir");
      modes = List.copyOf(modes);
      ks = List.copyOf(new java.util.TreeSet<>(ks));
      if (ks.isEmpty() || ks.get(0) < 1) {
        throw new IllegalArgumentException("expected cut-offs of at least 1, found " + ks);
      }
      Objects.requireNonNull(embeddingName, "embeddingName");
      Objects.requireNonNull(embedding, "embedding");
      Objects.requireNonNull(weights, "weights");
      conversations = Set.copyOf(conversations);
      lexicalShares = List.copyOf(new java.util.LinkedHashSet<>(lexicalShares));
      sessionCaps = List.copyOf(new java.util.LinkedHashSet<>(sessionCaps));
      contextWeights = List.copyOf(new java.util.LinkedHashSet<>(contextWeights));
      lengthNorms = List.copyOf(new java.util.LinkedHashSet<>(lengthNorms));
      if (lexicalShares.isEmpty()
          || sessionCaps.isEmpty()
          || contextWeights.isEmpty()
          || lengthNorms.isEmpty()) {
        throw new IllegalArgumentException(
            "expected at least one lexical share, session cap, context weight and length norm");
      }
      new EnrichedConversationPack(
          dated, window, termEdges, entityEdges, resolveDates, termMaxTurns, termWeight);
      // each knob is checked on its own: the query validates each field apart from the others
      RecallQuery.Builder check = RecallQuery.builder("check", RecallMode.PPR).seeds(seeds);
      check.hops(hops).build();
      lexicalShares.forEach(v -> check.lexicalShare(v).build());
      sessionCaps.forEach(v -> check.sessionCap(v).build());
      contextWeights.forEach(v -> check.contextWeight(v).build());
      lengthNorms.forEach(v -> check.lengthNorm(v).build());
    }

    /** Every knob of the run as a Markdown table. */
    public String configMarkdown() {
      return LocomoConfig.toMarkdown(this);
    }

    /** Every knob of the run as JSON. */
    public String configJson() {
      return JsonFile.write(Map.of("config", LocomoConfig.knobs(this)));
    }

    /** The first lexical share, the one reports name when there is no grid. */
    double lexicalShare() {
      return lexicalShares.get(0);
    }

    /**
     * Every Loci system this run asks: each mode with each lexical share (modes that fuse) and each
     * session cap, named by the mode alone when the grid has one point.
     */
    List<LocomoVariant> variants() {
      return LocomoVariant.grid(modes, lexicalShares, sessionCaps, contextWeights, lengthNorms);
    }

    /**
     * Every mode at k 5, 10, 20 with the knobs tuned on conversations 1-5 with the hashing provider
     * (see docs/benchmarks.md for the grid): turn text with the session date and one neighbouring
     * turn on each side, {@code shares_term} edges across sessions, 20 seeds, 1 hop, the pack's
     * weights, and a lexical share of 1 (every share below 1 lowered recall with hashing
     * embeddings, so {@code hybrid} here ranks as {@code lexical} does; retune it for a real
     * embedding model).
     */
    public static Options defaults(Path data, String embeddingName, EmbeddingProvider embedding) {
      return new Options(
          data,
          Path.of("loci-bench-work"),
          List.of(RecallMode.values()),
          List.of(5, 10, 20),
          embeddingName,
          embedding,
          true,
          1,
          true,
          EnrichedConversationPack.RARE,
          EnrichedConversationPack.TERM_WEIGHT,
          false,
          false,
          20,
          1,
          Optional.empty(),
          List.of(TUNED_LEXICAL_SHARE.getOrDefault(embeddingName, 0.5)),
          List.of(0),
          List.of(RecallQuery.DEFAULT_CONTEXT_WEIGHT),
          List.of(RecallQuery.DEFAULT_LENGTH_NORM),
          Set.of(),
          true);
    }

    /**
     * The lexical share in fusion chosen on conversations 1-5 for each embedding provider (see
     * docs/benchmarks.md): the hashing vectors only lowered recall when they had any say; with
     * all-MiniLM-L6-v2, 0.9 beat 1.0, 0.8, 0.7 and 0.5 on tuning {@code recall_all@5} for ppr. With
     * bge-small, since the graph modes seed from the z-score fusion, leave-one-conversation-out
     * chooses 0.5 (even weights) for every mode in every fold of LoCoMo 1-5, and on the second
     * development set for {@code hybrid} and {@code weighted_graph} in 11 of 12 folds ({@code ppr}:
     * 0.9 in 4 of 6); docs/benchmarks.md, "Graph seeds from z-score fusion".
     */
    static final Map<String, Double> TUNED_LEXICAL_SHARE =
        Map.of(
            "hashing",
            1.0,
            "onnx",
            0.9,
            "bge-small",
            0.5,
            "bge-small-q",
            0.5,
            "bge-small-qd",
            0.5,
            "bge-small-int8",
            0.5);

    /** The {@code conversation} pack with this run's turn text and edges. */
    EnrichedConversationPack pack() {
      return new EnrichedConversationPack(
          dated, window, termEdges, entityEdges, resolveDates, termMaxTurns, termWeight);
    }

    /** How deep the turn metrics read a ranking: the largest cut-off, at least nDCG's. */
    int depth() {
      return Math.max(ks.get(ks.size() - 1), LocomoMetrics.NDCG_K);
    }

    /**
     * How many turns every system ranks: the turn depth, at least Loci's candidate pool, so that
     * the session ranking reaches enough distinct sessions; asking Loci for the pool changes none
     * of its first {@link #depth()} items (the pool is what {@code hybrid} fuses at any k up to
     * it).
     */
    int rankDepth() {
      return Math.max(depth(), Retriever.POOL);
    }
  }

  /**
   * One question's rankings.
   *
   * @param question the question
   * @param conversation its conversation number
   * @param ranked per system, the ranked turn ids
   */
  record Asked(LocomoData.Question question, int conversation, Map<String, List<String>> ranked) {
    String split() {
      return conversation <= TUNING_CONVERSATIONS ? TUNING : HELD_OUT;
    }
  }

  /**
   * The result of a run.
   *
   * @param options what ran
   * @param machine where
   * @param data what was read and skipped
   * @param systems the systems in report order: Loci modes, then peers
   * @param asked every question's rankings
   * @param seconds wall time of the whole run
   */
  public record Report(
      Options options,
      Machine machine,
      LocomoData data,
      List<String> systems,
      List<Asked> asked,
      double seconds) {

    /** Mean metrics per split, level, system and category ({@code overall} too). */
    Map<String, Map<String, Map<String, Map<String, Map<String, Double>>>>> summary() {
      Map<String, Map<String, Map<String, Map<String, Map<String, Double>>>>> out =
          new LinkedHashMap<>();
      for (String split : List.of(TUNING, HELD_OUT, "all")) {
        Predicate<Asked> inSplit = a -> split.equals("all") || a.split().equals(split);
        Map<String, Map<String, Map<String, Map<String, Double>>>> levels = new LinkedHashMap<>();
        for (String level : LEVELS) {
          Map<String, Map<String, Map<String, Double>>> bySystem = new LinkedHashMap<>();
          for (String system : systems) {
            Map<String, Map<String, Double>> byCategory = new LinkedHashMap<>();
            byCategory.put("overall", mean(inSplit, level, system, c -> true));
            for (int c = 1; c <= 5; c++) {
              int cat = c;
              byCategory.put(
                  LocomoData.CATEGORIES.get(c),
                  mean(inSplit, level, system, q -> q.category() == cat));
            }
            bySystem.put(system, byCategory);
          }
          levels.put(level, bySystem);
        }
        out.put(split, levels);
      }
      return out;
    }

    private Map<String, Double> mean(
        Predicate<Asked> split,
        String level,
        String system,
        Predicate<LocomoData.Question> category) {
      Map<String, Double> sums = new LinkedHashMap<>();
      int n = 0;
      for (Asked a : asked) {
        if (!split.test(a) || !category.test(a.question())) {
          continue;
        }
        n++;
        scores(a, system, level, options.ks()).forEach((k, v) -> sums.merge(k, v, Double::sum));
      }
      Map<String, Double> out = new LinkedHashMap<>();
      out.put("questions", (double) n);
      int count = n;
      sums.forEach((k, v) -> out.put(k, v / count));
      return out;
    }

    /** Markdown: skips, then per split the overall table and the by-category table. */
    public String toMarkdown() {
      return new LocomoReportFormat(this).markdown();
    }

    /** The full report as JSON, with every question's rankings and turn-level scores. */
    public String toJson() {
      return new LocomoReportFormat(this).json();
    }
  }

  /** Every metric of one question for one system at one level. */
  static Map<String, Double> scores(Asked a, String system, String level, List<Integer> ks) {
    List<String> deep = a.ranked().get(system);
    int depth = Math.max(ks.get(ks.size() - 1), LocomoMetrics.NDCG_K);
    List<String> ranked = deep.subList(0, Math.min(depth, deep.size()));
    Set<String> gold = new LinkedHashSet<>(a.question().evidence());
    Set<String> sessions = new LinkedHashSet<>(LocomoMetrics.sessions(gold));
    Map<String, Double> out = new LinkedHashMap<>();
    // what is ranked, against what gold, at each level; k cuts turns except in the session ranking
    List<String> list =
        switch (level) {
          case "turn" -> ranked;
          case "session_ranking" -> LocomoMetrics.sessions(deep);
          default -> LocomoMetrics.sessions(ranked);
        };
    Set<String> relevant = level.equals("turn") ? gold : sessions;
    for (int k : ks) {
      List<String> cut =
          level.equals("session") ? LocomoMetrics.sessionsWithin(ranked, k) : head(list, k);
      out.put("recall_any@" + k, LocomoMetrics.recallAny(cut, relevant, cut.size()));
      out.put("recall_all@" + k, LocomoMetrics.recallAll(cut, relevant, cut.size()));
      out.put("recall@" + k, LocomoMetrics.recall(cut, relevant, cut.size()));
    }
    out.put("ndcg@10", LocomoMetrics.ndcg(list, relevant, LocomoMetrics.NDCG_K));
    out.put("mrr", LocomoMetrics.reciprocalRank(list, relevant));
    return out;
  }

  private static List<String> head(List<String> list, int k) {
    return list.subList(0, Math.min(k, list.size()));
  }

  /** The namespace label the {@code conversation} pack gives a sample id. */
  static String label(String sampleId) {
    String l = sampleId.strip().toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9_-]", "-");
    return l.length() > 63 ? l.substring(0, 63) : l;
  }

  /**
   * Runs the benchmark, logging progress to {@code log}.
   *
   * @throws IllegalArgumentException if the data file cannot be read as LoCoMo
   */
  public static Report run(Options options, PrintStream log) {
    return run(options, log, Optional.empty());
  }

  /**
   * Runs the benchmark as {@link #run(Options, PrintStream)} does, also writing every question's
   * candidate lists to {@code dump} (see {@link CandidateDump}) when present.
   */
  public static Report run(Options options, PrintStream log, Optional<Path> dump) {
    long start = System.nanoTime();
    Machine machine = Machine.start("locomo", options.workDir(), log);
    LocomoData data = LocomoData.read(options.data());
    String text;
    try {
      text = Files.readString(options.data(), StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    SourceDocument document = new SourceDocument(options.data().toString(), text);
    Map<String, Map<String, String>> rawTurns = new TreeMap<>();
    Map<String, List<dev.loci.recall.MemoryNode>> rawNodes = new TreeMap<>();
    for (Ingestion.Graph g : DomainPacks.named("conversation").read(document).graphs()) {
      Map<String, String> turns = new LinkedHashMap<>();
      g.nodes().forEach(n -> turns.put(n.id(), n.content()));
      rawTurns.put(g.childLabel().orElse(""), turns);
      rawNodes.put(g.childLabel().orElse(""), g.nodes());
    }
    List<LocomoData.Conversation> conversations =
        data.conversations().stream()
            .filter(
                c ->
                    options.conversations().isEmpty()
                        || options.conversations().contains(c.number()))
            .toList();
    List<String> systems = new ArrayList<>();
    options.variants().forEach(v -> systems.add(v.name()));
    QueryMemo memo = QueryMemo.persistent(options.embedding());
    List<LocomoPeers.Peer> peers = new ArrayList<>();
    peers.add(new LocomoPeers.LuceneBm25());
    peers.add(new LocomoPeers.SqliteFts5());
    if (options.densePeer()) {
      peers.add(new LocomoPeers.DenseScan(memo));
    }
    peers.forEach(p -> systems.add(p.name()));
    int total = conversations.stream().mapToInt(c -> c.questions().size()).sum();
    Progress progress = new Progress(log, "locomo: questions", total);
    List<Asked> asked = new ArrayList<>();
    Namespace root = Namespace.of("bench.locomo");
    Optional<CandidateDump> dumped = dump.map(CandidateDump::open);
    try (ScratchDir dir = ScratchDir.create(options.workDir(), "locomo");
        Loci loci = Loci.builder().dataDir(dir.path()).durability(Durability.none()).open()) {
      RecallMemory recall = RecallMemory.of(loci, memo);
      log.println("locomo: ingesting " + options.data() + " with the conversation pack");
      recall.ingest(root, options.pack(), document, RecallMemory.Progress.NONE);
      for (LocomoData.Conversation c : conversations) {
        String label = label(c.sampleId());
        Namespace ns = Namespace.of(root.value() + "." + label);
        Map<String, String> turns = rawTurns.getOrDefault(label, Map.of());
        // questions are asked from the conversation's last day, as if right after it
        Optional<java.time.LocalDate> askedOn =
            CandidateDump.lastDay(rawNodes.getOrDefault(label, List.of()));
        peers.forEach(p -> p.index(turns));
        dumped.ifPresent(
            d -> {
              d.reset();
              d.conversation(c.number(), rawNodes.getOrDefault(label, List.of()));
            });
        for (LocomoData.Question q : c.questions()) {
          dumped.ifPresent(
              d ->
                  d.question(
                      recall,
                      ns,
                      c.number(),
                      q,
                      c.number() <= TUNING_CONVERSATIONS ? TUNING : HELD_OUT));
          Map<String, List<String>> ranked = new LinkedHashMap<>();
          for (LocomoVariant v : options.variants()) {
            RecallQuery.Builder query =
                RecallQuery.builder(q.text(), v.mode())
                    .k(options.entityEdges() ? ENTITY_DEPTH : options.rankDepth())
                    .seeds(options.seeds())
                    .hops(options.hops())
                    .lexicalShare(v.lexicalShare())
                    .sessionCap(v.sessionCap())
                    .contextWeight(v.contextWeight())
                    .lengthNorm(v.lengthNorm());
            options.weights().ifPresent(query::weights);
            askedOn.ifPresent(query::asOf);
            ranked.put(
                v.name(),
                recall.recall(ns, query.build()).ids().stream()
                    .filter(id -> !EntityLinks.isEntity(id))
                    .limit(options.rankDepth())
                    .toList());
          }
          for (LocomoPeers.Peer p : peers) {
            ranked.put(p.name(), p.rank(q.text(), options.rankDepth()));
          }
          asked.add(new Asked(q, c.number(), ranked));
          progress.advance();
        }
      }
    } finally {
      peers.forEach(LocomoPeers.Peer::close);
      memo.close();
      dumped.ifPresent(CandidateDump::close);
    }
    progress.done();
    return new Report(options, machine, data, systems, asked, (System.nanoTime() - start) / 1e9);
  }

  /** A text progress bar on the log: redrawn in place on a terminal, else a line per tenth. */
  static final class Progress {
    private final PrintStream log;
    private final String what;
    private final int total;
    private final boolean terminal = System.console() != null;
    private int done;
    private int shownTenth = -1;

    Progress(PrintStream log, String what, int total) {
      this.log = log;
      this.what = what;
      this.total = Math.max(1, total);
    }

    void advance() {
      done++;
      int tenth = done * 10 / total;
      if (terminal) {
        int width = 30;
        int filled = done * width / total;
        log.print(
            "\r"
                + what
                + " ["
                + "#".repeat(filled)
                + ".".repeat(width - filled)
                + "] "
                + done
                + "/"
                + total);
        log.flush();
      } else if (tenth != shownTenth) {
        shownTenth = tenth;
        log.println(what + " " + done + "/" + total + " (" + tenth * 10 + "%)");
      }
    }

    void done() {
      if (terminal) {
        log.println();
      }
    }
  }
}
