package dev.loci.spring.ai;

import dev.loci.Namespace;
import dev.loci.client.LociApi;
import dev.loci.recall.RecallItem;
import dev.loci.recall.RecallMode;
import dev.loci.recall.RecallQuery;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;
import org.springframework.ai.document.Document;
import org.springframework.ai.rag.Query;
import org.springframework.ai.rag.retrieval.search.DocumentRetriever;

/**
 * A Spring AI {@link DocumentRetriever} backed by Loci's recall: each recalled node becomes a
 * {@link Document} with the node's id and content, the recall score, and in its metadata the node
 * type, the evidence path ({@value #PATH}) and the source references ({@value #EVIDENCE}).
 *
 * <p>Spring AI's {@code ContextualQueryAugmenter} puts only document text into the prompt by
 * default; give it {@link #formatWithEvidence} as its document formatter so the model also sees how
 * each piece was reached and where it came from. Immutable and thread-safe.
 */
public final class LociDocumentRetriever implements DocumentRetriever {
  /** Document metadata: the recalled node's type. */
  public static final String NODE_TYPE = "loci_node_type";

  /** Document metadata: the evidence path on one line ({@link dev.loci.recall.MemoryPath}). */
  public static final String PATH = "loci_path";

  /** Document metadata: the source references of the nodes on the path, separated by "; ". */
  public static final String EVIDENCE = "loci_evidence";

  private final LociApi api;
  private final Namespace ns;
  private final RecallMode mode;
  private final int k;

  private LociDocumentRetriever(LociApi api, Namespace ns, RecallMode mode, int k) {
    this.api = Objects.requireNonNull(api, "api");
    this.ns = Objects.requireNonNull(ns, "namespace");
    this.mode = Objects.requireNonNull(mode, "mode");
    if (k < 1 || k > RecallQuery.MAX_K) {
      throw new IllegalArgumentException("k must be 1-" + RecallQuery.MAX_K + ", found " + k);
    }
    this.k = k;
  }

  /**
   * A retriever recalling at most {@code k} items from {@code ns} with {@code mode}.
   *
   * @throws IllegalArgumentException unless {@code k} is 1 to {@value RecallQuery#MAX_K}
   */
  public static LociDocumentRetriever of(LociApi api, Namespace ns, RecallMode mode, int k) {
    return new LociDocumentRetriever(api, ns, mode, k);
  }

  /** Recalls the query's text; the best items first. */
  @Override
  public List<Document> retrieve(Query query) {
    RecallQuery q = RecallQuery.builder(query.text(), mode).k(k).build();
    return api.recall(ns, q).items().stream().map(LociDocumentRetriever::document).toList();
  }

  /**
   * Each document's text followed by its evidence path and sources on their own lines, documents
   * separated by a blank line: a document formatter for Spring AI's {@code
   * ContextualQueryAugmenter}.
   */
  public static String formatWithEvidence(List<Document> documents) {
    return documents.stream()
        .map(
            d -> {
              StringBuilder sb = new StringBuilder(Objects.toString(d.getText(), ""));
              Object path = d.getMetadata().get(PATH);
              Object evidence = d.getMetadata().get(EVIDENCE);
              if (path != null) {
                sb.append("\n(path: ").append(path).append(')');
              }
              if (evidence != null) {
                sb.append("\n(source: ").append(evidence).append(')');
              }
              return sb.toString();
            })
        .collect(Collectors.joining("\n\n"));
  }

  private static Document document(RecallItem it) {
    Map<String, Object> meta = new LinkedHashMap<>();
    meta.put(NODE_TYPE, it.node().type());
    meta.put(PATH, it.path().describe());
    String evidence = String.join("; ", it.path().sources());
    if (!evidence.isEmpty()) {
      meta.put(EVIDENCE, evidence);
    }
    return Document.builder()
        .id(it.node().id())
        .text(it.node().content())
        .metadata(meta)
        .score(it.score())
        .build();
  }
}
