package dev.loci.recall;

import dev.loci.InvalidRequestException;
import java.util.Objects;
import java.util.Optional;

/**
 * A recall request: the question, the mode, how many items, and the knobs of the graph modes.
 *
 * @param text the question, not blank
 * @param mode how to find and rank
 * @param k how many items at most, 1 to {@value #MAX_K}
 * @param weights the {@code weighted_graph} weights; absent means the domain pack's (or {@link
 *     ScoreWeights#DEFAULT})
 * @param seeds how many of the best flat candidates the graph modes start from, at least 1
 * @param hops how many edges a path may follow, at least 1 ({@code ppr} walks at least 3)
 * @param decay what share of activation survives each hop in {@code activation_spreading}, in (0,
 *     1]
 * @param threshold the activation below which spreading stops, at least 0
 * @param restart the restart probability of {@code ppr} (1 - damping), in (0, 1)
 * @param lexicalShare how much the lexical ranking counts against the embedding one where both are
 *     fused (the weight of each list's z-scores in {@code hybrid} and in the graph modes' semantic
 *     score), in [0, 1]; 0.5 weighs them evenly
 * @param sessionCap how many items sharing one value of the node attribute {@value #SESSION} may
 *     stand before an item of another session; the rest move down the ranking (not out of it), 0 to
 *     {@value #MAX_K}; 0 is no cap
 * @param contextWeight how much a match in an item's context ({@link MemoryNode#INDEX_CONTEXT}, the
 *     conversation pack's neighbouring turns) counts against one in its content in the lexical
 *     ranking, in [0, 1]; 0 ignores the context
 * @param lengthNorm how much a longer text's lexical matches are discounted for its length (BM25's
 *     {@code b}), in [0, 1]; 0 ignores length, 1 divides by it in full (Lucene's default is 0.75)
 * @param asOf the day the question is asked from, which dates without a year ("in June") and
 *     relative ones ("last year") in the question count back from; absent means today (UTC). When
 *     the question names a day or period ({@link QueryDates}), items dated in it by the node
 *     attribute {@value #TIME} rank higher in fusion (a soft boost, not a filter); so do the items
 *     said by a person the question names ({@value #SPEAKER})
 */
public record RecallQuery(
    String text,
    RecallMode mode,
    int k,
    Optional<ScoreWeights> weights,
    int seeds,
    int hops,
    double decay,
    double threshold,
    double restart,
    double lexicalShare,
    int sessionCap,
    double contextWeight,
    double lengthNorm,
    Optional<java.time.LocalDate> asOf) {
  /** The largest {@code k} accepted. */
  public static final int MAX_K = 1000;

  /** The node attribute that groups items for {@link #sessionCap()}. */
  public static final String SESSION = "session";

  /**
   * The node attribute that dates an item for the periods a question names: a date {@link
   * TimeExpressions#readDate} reads, as the {@code conversation} pack's session time.
   */
  public static final String TIME = "session_time";

  /**
   * The node attribute naming who said an item, as the {@code conversation} pack's turns carry it:
   * when the question names the speaker of some candidates (a word of the name is a word of the
   * question), they rank higher in fusion (a soft boost, not a filter).
   */
  public static final String SPEAKER = "speaker";

  /** Validates every field; the exception names the offending one. */
  public RecallQuery {
    Objects.requireNonNull(text, "text");
    if (text.isBlank()) {
      throw new InvalidRequestException("query", "expected a question, found a blank string");
    }
    Objects.requireNonNull(mode, "mode");
    if (k < 1 || k > MAX_K) {
      throw new InvalidRequestException("k", "expected 1 to " + MAX_K + ", found " + k);
    }
    Objects.requireNonNull(weights, "weights");
    if (seeds < 1 || seeds > MAX_K) {
      throw new InvalidRequestException("seeds", "expected 1 to " + MAX_K + ", found " + seeds);
    }
    if (hops < 1 || hops > 10) {
      throw new InvalidRequestException("hops", "expected 1 to 10, found " + hops);
    }
    if (!(decay > 0 && decay <= 1)) {
      throw new InvalidRequestException("decay", "expected a number in (0, 1], found " + decay);
    }
    if (!(threshold >= 0 && threshold < 1)) {
      throw new InvalidRequestException(
          "threshold", "expected a number in [0, 1), found " + threshold);
    }
    if (!(restart > 0 && restart < 1)) {
      throw new InvalidRequestException("restart", "expected a number in (0, 1), found " + restart);
    }
    if (!(lexicalShare >= 0 && lexicalShare <= 1)) {
      throw new InvalidRequestException(
          "lexical_share", "expected a number in [0, 1], found " + lexicalShare);
    }
    if (sessionCap < 0 || sessionCap > MAX_K) {
      throw new InvalidRequestException(
          "session_cap", "expected 0 (no cap) to " + MAX_K + ", found " + sessionCap);
    }
    if (!(contextWeight >= 0 && contextWeight <= 1)) {
      throw new InvalidRequestException(
          "context_weight", "expected a number in [0, 1], found " + contextWeight);
    }
    if (!(lengthNorm >= 0 && lengthNorm <= 1)) {
      throw new InvalidRequestException(
          "length_norm", "expected a number in [0, 1], found " + lengthNorm);
    }
    Objects.requireNonNull(asOf, "asOf");
  }

  /**
   * The default {@link #contextWeight()}: the context's words count 0.3 of the item's own, chosen
   * by leave-one-conversation-out on LoCoMo and both development sets (docs/benchmarks.md,
   * "Neighbouring turns as context").
   */
  public static final double DEFAULT_CONTEXT_WEIGHT = 0.3;

  /**
   * The default {@link #lengthNorm()}: 0.5, less than Lucene's 0.75, so a short message that merely
   * holds a question word (a one-word reaction in a chat) ranks less far above the text that
   * answers; chosen on LoCoMo and checked on the three development sets (docs/benchmarks.md,
   * "Length normalization").
   */
  public static final double DEFAULT_LENGTH_NORM = 0.5;

  /** Starts a query in {@code mode} with k 10 and the default knobs. */
  public static Builder builder(String text, RecallMode mode) {
    return new Builder(text, mode);
  }

  /** Builds a {@link RecallQuery}; not thread-safe. */
  public static final class Builder {
    private final String text;
    private final RecallMode mode;
    private int k = 10;
    private Optional<ScoreWeights> weights = Optional.empty();
    private int seeds = 3;
    private int hops = 2;
    private double decay = 0.7;
    private double threshold = 0.05;
    private double restart = 0.15;
    private double lexicalShare = 0.5;
    private int sessionCap;
    private double contextWeight = DEFAULT_CONTEXT_WEIGHT;
    private double lengthNorm = DEFAULT_LENGTH_NORM;
    private Optional<java.time.LocalDate> asOf = Optional.empty();

    private Builder(String text, RecallMode mode) {
      this.text = text;
      this.mode = mode;
    }

    /** How many items at most; default 10. */
    public Builder k(int k) {
      this.k = k;
      return this;
    }

    /** The {@code weighted_graph} weights for this request, over the domain pack's. */
    public Builder weights(ScoreWeights weights) {
      this.weights = Optional.of(weights);
      return this;
    }

    /** How many flat candidates the graph modes start from; default 3. */
    public Builder seeds(int seeds) {
      this.seeds = seeds;
      return this;
    }

    /** How many edges a path may follow; default 2. */
    public Builder hops(int hops) {
      this.hops = hops;
      return this;
    }

    /** The share of activation that survives a hop; default 0.7. */
    public Builder decay(double decay) {
      this.decay = decay;
      return this;
    }

    /** The activation below which spreading stops; default 0.05. */
    public Builder threshold(double threshold) {
      this.threshold = threshold;
      return this;
    }

    /** The restart probability of personalized PageRank; default 0.15. */
    public Builder restart(double restart) {
      this.restart = restart;
      return this;
    }

    /** How much the lexical ranking counts in fusion, in [0, 1]; default 0.5 (even). */
    public Builder lexicalShare(double lexicalShare) {
      this.lexicalShare = lexicalShare;
      return this;
    }

    /**
     * How much a match in an item's context counts against one in its content, in [0, 1]; default
     * {@link #DEFAULT_CONTEXT_WEIGHT}.
     */
    public Builder contextWeight(double contextWeight) {
      this.contextWeight = contextWeight;
      return this;
    }

    /**
     * How much a longer text's lexical matches are discounted for its length (BM25's {@code b}), in
     * [0, 1]; default {@link #DEFAULT_LENGTH_NORM}.
     */
    public Builder lengthNorm(double lengthNorm) {
      this.lengthNorm = lengthNorm;
      return this;
    }

    /** How many items of one session may stand before an item of another; default 0, no cap. */
    public Builder sessionCap(int sessionCap) {
      this.sessionCap = sessionCap;
      return this;
    }

    /** The day the question is asked from; default today (UTC). */
    public Builder asOf(java.time.LocalDate asOf) {
      this.asOf = Optional.of(asOf);
      return this;
    }

    /**
     * Builds the query.
     *
     * @throws InvalidRequestException naming the offending field
     */
    public RecallQuery build() {
      return new RecallQuery(
          text,
          mode,
          k,
          weights,
          seeds,
          hops,
          decay,
          threshold,
          restart,
          lexicalShare,
          sessionCap,
          contextWeight,
          lengthNorm,
          asOf);
    }
  }
}
