package dev.loci.recall.internal;

import dev.loci.InvalidRequestException;
import dev.loci.recall.MemoryEdge;
import dev.loci.recall.MemoryNode;
import dev.loci.recall.ScoreWeights;
import dev.loci.recall.TimeExpressions;
import dev.loci.recall.spi.DomainPack;
import dev.loci.recall.spi.Ingestion;
import dev.loci.recall.spi.SourceDocument;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The {@code conversation} pack with options, named by the pack's name and the options joined with
 * {@code +} ({@code conversation+dated+window1+term-edges}, what {@code loci bench locomo} measures
 * by default): the pack reads the file exactly as it always does (same ids, edges, attributes and
 * skips), then each turn's text gets the session date as the file wrote it ({@code [1:56 pm on 8
 * May, 2023]}), the text of up to {@code window} turns before it in the same session (what it
 * answers) becomes its context ({@link MemoryNode#INDEX_CONTEXT}), and the options below add edges
 * and dates. The date's words in one form ({@code 8 May 2023}) that the file's form lacks are
 * indexed for lexical search ({@link MemoryNode#INDEX_TERMS}, see {@link #dateWordsNotWritten}), so
 * a question naming the day or its month matches it whatever the file's format. With no option it
 * is the pack unchanged. Immutable and thread-safe.
 *
 * @param dated whether the session date is added to the text as written, and the words it lacks of
 *     the date in one form to the lexical index
 * @param window how many turns before each turn, in its session, are its context, 0 to 3
 * @param termEdges whether turns of different sessions that share a rare word (one that 2 to {@code
 *     termMaxTurns} turns of the conversation hold, at least 4 letters) get a {@code shares_term}
 *     edge of weight {@code termWeight}, both ways, so graph modes can cross sessions
 * @param entityEdges whether each turn gets a {@code mentions} edge of weight {@value
 *     #ENTITY_WEIGHT}, both ways, to an entity node per name it mentions (see {@link EntityLinks})
 * @param resolveDates whether the relative time expressions of a turn ("yesterday", "last
 *     Saturday") are resolved against its session date by {@link TimeExpressions}: the absolute
 *     dates are added to its text in words ({@code [yesterday: 7 May 2023]}) and kept as the
 *     attribute {@value #DATES} (ISO days, {@code start/end} for a period, comma-separated)
 * @param termMaxTurns the most turns of a conversation a word may be held by and still link them
 *     (default {@value #RARE})
 * @param termWeight the weight of a {@code shares_term} edge, in (0, 1] (default {@value
 *     #TERM_WEIGHT})
 */
public record EnrichedConversationPack(
    boolean dated,
    int window,
    boolean termEdges,
    boolean entityEdges,
    boolean resolveDates,
    int termMaxTurns,
    double termWeight)
    implements DomainPack {
  private static final DomainPack CONVERSATION = new ConversationPack();

  /** The most turns a word may appear in and still link them. */
  public static final int RARE = 4;

  /** The weight of a {@code shares_term} edge. */
  public static final double TERM_WEIGHT = 0.8;

  /** The weight of a {@code mentions} edge. */
  public static final double ENTITY_WEIGHT = 0.4;

  /**
   * With the default {@code shares_term} thresholds ({@value #RARE} turns, {@value #TERM_WEIGHT}).
   */
  public EnrichedConversationPack(
      boolean dated, int window, boolean termEdges, boolean entityEdges, boolean resolveDates) {
    this(dated, window, termEdges, entityEdges, resolveDates, RARE, TERM_WEIGHT);
  }

  /** Without term or entity edges. */
  public EnrichedConversationPack(boolean dated, int window) {
    this(dated, window, false, false, false);
  }

  /** Without entity edges. */
  public EnrichedConversationPack(boolean dated, int window, boolean termEdges) {
    this(dated, window, termEdges, false, false);
  }

  /** The attribute holding a turn's resolved dates. */
  public static final String DATES = "resolved_dates";

  /**
   * The pack a name with options asks for: {@code conversation} followed by any of {@code +dated},
   * {@code +window1} to {@code +window3}, {@code +term-edges}, {@code +entity-edges} and {@code
   * +resolved-dates}, in any order, each at most once.
   *
   * @throws InvalidRequestException naming {@code pack} for any other option
   */
  public static EnrichedConversationPack parse(String name) {
    String[] parts = name.split("\\+", -1);
    if (!parts[0].equals(ConversationPack.NAME)) {
      throw new InvalidRequestException(
          "pack", "expected options after 'conversation+', found '" + name + "'");
    }
    boolean dated = false;
    int window = 0;
    boolean terms = false;
    boolean entities = false;
    boolean dates = false;
    java.util.Set<String> seen = new HashSet<>();
    for (int i = 1; i < parts.length; i++) {
      String o = parts[i];
      if (!seen.add(o.startsWith("window") ? "window" : o)) {
        throw new InvalidRequestException(
            "pack", "option '" + o + "' given twice in '" + name + "'");
      }
      switch (o) {
        case "dated" -> dated = true;
        case "window1", "window2", "window3" -> window = o.charAt(6) - '0';
        case "term-edges" -> terms = true;
        case "entity-edges" -> entities = true;
        case "resolved-dates" -> dates = true;
        default ->
            throw new InvalidRequestException(
                "pack",
                "expected conversation options dated, window1 to window3, term-edges,"
                    + " entity-edges or resolved-dates, found '"
                    + o
                    + "' in '"
                    + name
                    + "'");
      }
    }
    return new EnrichedConversationPack(dated, window, terms, entities, dates);
  }

  /** Checks the window and the {@code shares_term} thresholds. */
  public EnrichedConversationPack {
    if (window < 0 || window > 3) {
      throw new IllegalArgumentException("expected a window of 0 to 3 turns, found " + window);
    }
    if (termMaxTurns < 2) {
      throw new IllegalArgumentException(
          "expected term edges' most turns of at least 2, found " + termMaxTurns);
    }
    if (!(termWeight > 0 && termWeight <= 1)) {
      throw new IllegalArgumentException(
          "expected a term edge weight in (0, 1], found " + termWeight);
    }
  }

  /**
   * A short name for reports: {@code raw}, {@code dated}, {@code window1}, {@code dated+window1};
   * {@code conversation+} and the label (unless {@code raw}) is the name {@link #parse} reads.
   */
  public String label() {
    List<String> parts = new ArrayList<>();
    if (dated) {
      parts.add("dated");
    }
    if (window > 0) {
      parts.add("window" + window);
    }
    if (termEdges) {
      parts.add("term-edges");
    }
    if (entityEdges) {
      parts.add("entity-edges");
    }
    if (resolveDates) {
      parts.add("resolved-dates");
    }
    return parts.isEmpty() ? "raw" : String.join("+", parts);
  }

  @Override
  public String name() {
    return CONVERSATION.name();
  }

  @Override
  public ScoreWeights weights() {
    return CONVERSATION.weights();
  }

  @Override
  public Ingestion read(SourceDocument document) {
    Ingestion plain = CONVERSATION.read(document);
    if (!dated && window == 0 && !termEdges && !entityEdges && !resolveDates) {
      return plain;
    }
    List<Ingestion.Graph> graphs = new ArrayList<>();
    for (Ingestion.Graph g : plain.graphs()) {
      List<MemoryNode> nodes = g.nodes();
      List<MemoryNode> enriched = new ArrayList<>(nodes.size());
      for (int i = 0; i < nodes.size(); i++) {
        enriched.add(enrich(nodes, i));
      }
      List<MemoryEdge> edges = new ArrayList<>(g.edges());
      if (termEdges) {
        edges.addAll(termEdges(nodes, termMaxTurns, termWeight));
      }
      if (entityEdges) {
        EntityLinks.link(nodes, enriched, edges, ENTITY_WEIGHT);
      }
      graphs.add(new Ingestion.Graph(g.childLabel(), enriched, edges));
    }
    return new Ingestion(graphs, plain.skipped());
  }

  /** A {@code shares_term} edge between turns of different sessions sharing a rare word. */
  private static List<MemoryEdge> termEdges(List<MemoryNode> nodes, int maxTurns, double weight) {
    Map<String, Set<Integer>> holders = new TreeMap<>();
    for (int i = 0; i < nodes.size(); i++) {
      String text = nodes.get(i).content().toLowerCase(Locale.ROOT);
      int colon = text.indexOf(": ");
      for (String w : text.substring(colon + 1).split("[^\\p{L}]+")) {
        if (w.length() >= 4) {
          holders.computeIfAbsent(w, x -> new TreeSet<>()).add(i);
        }
      }
    }
    Set<MemoryEdge.Key> keys = new HashSet<>();
    List<MemoryEdge> out = new ArrayList<>();
    for (Set<Integer> turns : holders.values()) {
      if (turns.size() < 2 || turns.size() > maxTurns) {
        continue;
      }
      List<Integer> t = List.copyOf(turns);
      for (int a = 0; a < t.size(); a++) {
        for (int b = a + 1; b < t.size(); b++) {
          MemoryNode x = nodes.get(t.get(a));
          MemoryNode y = nodes.get(t.get(b));
          MemoryEdge e = MemoryEdge.of(x.id(), y.id(), "shares_term", weight).bothWays();
          if (!session(x).equals(session(y)) && keys.add(e.key())) {
            out.add(e);
          }
        }
      }
    }
    return out;
  }

  private MemoryNode enrich(List<MemoryNode> nodes, int i) {
    MemoryNode n = nodes.get(i);
    String session = session(n);
    StringBuilder text = new StringBuilder(n.content());
    String time = n.attributes().get("session_time");
    // the session's day, read once for both options that need it
    Optional<LocalDate> day =
        time != null && (dated || resolveDates) ? TimeExpressions.readDate(time) : Optional.empty();
    Map<String, String> attributes = n.attributes();
    if (dated && time != null) {
      text.append(" [").append(time).append(']');
      String missing = day.map(d -> dateWordsNotWritten(time, d)).orElse("");
      if (!missing.isEmpty()) {
        attributes = with(attributes, MemoryNode.INDEX_TERMS, missing);
      }
    }
    if (resolveDates) {
      List<String> iso = new ArrayList<>();
      for (TimeExpressions.Resolved r :
          day.map(a -> TimeExpressions.resolve(n.content(), a)).orElse(List.of())) {
        text.append(" [").append(r.phrase()).append(": ").append(r.words()).append(']');
        iso.add(r.start().equals(r.end()) ? r.start().toString() : r.start() + "/" + r.end());
      }
      if (!iso.isEmpty()) {
        attributes = with(attributes, DATES, String.join(",", iso));
      }
    }
    // the turns before are the turn's context, not its text: what a turn answers helps find it,
    // and it still ranks above the turns that merely border what it says; the turns after it are
    // about the reply, not about it, and left out (MemoryNode.INDEX_CONTEXT, docs/benchmarks.md)
    String context = context(nodes, i, session, window);
    if (!context.isEmpty()) {
      attributes = with(attributes, MemoryNode.INDEX_CONTEXT, context);
    }
    return n.withContent(text.toString(), attributes);
  }

  /**
   * The context of turn {@code i}: the {@code window} turns before it in its session, nearest
   * first, joined by {@code " | "}. A speaker's own messages just before it and the whole run of
   * messages it answers (in a chat where a thought is sent as several short messages) were tried
   * instead and lost on the chat development set (docs/benchmarks.md, "A chat's messages").
   */
  static String context(List<MemoryNode> nodes, int i, String session, int window) {
    List<String> turns = new ArrayList<>(window);
    for (int j = i - 1; j >= 0 && j >= i - window; j--) {
      if (!Objects.equals(session(nodes.get(j)), session)) {
        break;
      }
      turns.add(nodes.get(j).content());
    }
    return String.join(" | ", turns);
  }

  /**
   * The words of {@code day} in one form ({@code 8 May 2023}, see {@link TimeExpressions#inWords})
   * that the session date as written ({@code time}, from which {@link TimeExpressions#readDate}
   * read {@code day}) lacks: {@code 4 March} for {@code 2024-03-04 09:15}, none for {@code 1:56 pm
   * on 8 May, 2023}, so each of the date's words is in the lexical index once whatever the file's
   * format.
   */
  static String dateWordsNotWritten(String time, LocalDate day) {
    Set<String> written = QueryEvidence.words(time);
    return String.join(
        " ",
        java.util.Arrays.stream(TimeExpressions.inWords(day).split(" "))
            .filter(w -> !written.contains(w.toLowerCase(Locale.ROOT)))
            .toList());
  }

  /** {@code attributes} with {@code key} set to {@code value}, in a copy. */
  private static Map<String, String> with(
      Map<String, String> attributes, String key, String value) {
    Map<String, String> out = new TreeMap<>(attributes);
    out.put(key, value);
    return out;
  }

  private static String session(MemoryNode n) {
    return n.attributes().getOrDefault("session", "");
  }
}
