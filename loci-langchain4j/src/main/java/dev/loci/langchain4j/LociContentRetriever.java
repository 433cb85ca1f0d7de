package dev.loci.langchain4j;

import dev.langchain4j.data.document.Metadata;
import dev.langchain4j.data.segment.TextSegment;
import dev.langchain4j.rag.content.Content;
import dev.langchain4j.rag.content.ContentMetadata;
import dev.langchain4j.rag.content.retriever.ContentRetriever;
import dev.langchain4j.rag.query.Query;
import dev.loci.Namespace;
import dev.loci.client.LociApi;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A LangChain4j {@link ContentRetriever} backed by Loci's recall: each recalled node becomes one
 * {@link Content} whose text is the node's content, with the recall score as {@link
 * ContentMetadata#SCORE} and, in the segment's metadata, the node id and type, the evidence path
 * ({@value #PATH}: how recall reached it) and the source references ({@value #EVIDENCE}).
 *
 * <p>LangChain4j's default content injector puts only the text into the prompt; to let the model
 * cite where an answer came from, give the injector {@link #METADATA_KEYS}. Immutable and
 * thread-safe.
 *
 * <pre>{@code
 * ContentRetriever retriever =
 *     LociContentRetriever.builder(loci, Namespace.of("acme.docs")).k(5).build();
 * Assistant assistant =
 *     AiServices.builder(Assistant.class).chatModel(model).contentRetriever(retriever).build();
 * }</pre>
 */
public final class LociContentRetriever implements ContentRetriever {
  /** Segment metadata: the recalled node's id. */
  public static final String NODE_ID = "loci_node_id";

  /** Segment metadata: the recalled node's type. */
  public static final String NODE_TYPE = "loci_node_type";

  /** Segment metadata: the evidence path, on one line ({@link dev.loci.recall.MemoryPath}). */
  public static final String PATH = "loci_path";

  /** Segment metadata: the source references of the nodes on the path, separated by "; ". */
  public static final String EVIDENCE = "loci_evidence";

  /** Segment metadata: the recall score, as {@link ContentMetadata#SCORE} holds it too. */
  public static final String SCORE = "loci_score";

  /** The metadata keys worth showing a model: the path and the sources. */
  public static final List<String> METADATA_KEYS = List.of(PATH, EVIDENCE);

  private final LociApi api;
  private final Namespace ns;
  private final RecallMode mode;
  private final int k;
  private final double minScore;

  private LociContentRetriever(Builder b) {
    this.api = b.api;
    this.ns = b.ns;
    this.mode = b.mode;
    this.k = b.k;
    this.minScore = b.minScore;
  }

  /** A retriever recalling from namespace {@code ns} through {@code api}. */
  public static Builder builder(LociApi api, Namespace ns) {
    return new Builder(api, ns);
  }

  /**
   * Recalls the query's text; the best items first, those under the minimum score left out.
   *
   * @throws dev.loci.InvalidRequestException if the query text is blank
   */
  @Override
  public List<Content> retrieve(Query query) {
    RecallQuery q = RecallQuery.builder(query.text(), mode).k(k).build();
    return api.recall(ns, q).items().stream()
        .filter(it -> it.score() >= minScore)
        .map(LociContentRetriever::content)
        .toList();
  }

  private static Content content(RecallItem it) {
    Metadata meta =
        new Metadata()
            .put(NODE_ID, it.node().id())
            .put(NODE_TYPE, it.node().type())
            .put(PATH, it.path().describe())
            .put(SCORE, it.score());
    String evidence = String.join("; ", it.path().sources());
    if (!evidence.isEmpty()) {
      meta.put(EVIDENCE, evidence);
    }
    return Content.from(
        TextSegment.from(it.node().content(), meta), Map.of(ContentMetadata.SCORE, it.score()));
  }

  /** Builds a {@link LociContentRetriever}; not thread-safe. */
  public static final class Builder {
    private final LociApi api;
    private final Namespace ns;
    private RecallMode mode = RecallMode.HYBRID;
    private int k = 5;
    private double minScore = 0;

    private Builder(LociApi api, Namespace ns) {
      this.api = Objects.requireNonNull(api, "api");
      this.ns = Objects.requireNonNull(ns, "namespace");
    }

    /** The recall mode; default {@code hybrid}. */
    public Builder mode(RecallMode mode) {
      this.mode = Objects.requireNonNull(mode, "mode");
      return this;
    }

    /**
     * How many items at most; default 5.
     *
     * @throws IllegalArgumentException unless 1 to {@value RecallQuery#MAX_K}
     */
    public Builder k(int k) {
      if (k < 1 || k > RecallQuery.MAX_K) {
        throw new IllegalArgumentException("k must be 1-" + RecallQuery.MAX_K + ", found " + k);
      }
      this.k = k;
      return this;
    }

    /**
     * Items scoring below this are left out; default 0 (keep all).
     *
     * @throws IllegalArgumentException if negative or not a number
     */
    public Builder minScore(double minScore) {
      if (!(minScore >= 0)) {
        throw new IllegalArgumentException("minScore must be >= 0, found " + minScore);
      }
      this.minScore = minScore;
      return this;
    }

    /** The retriever. */
    public LociContentRetriever build() {
      return new LociContentRetriever(this);
    }
  }
}
