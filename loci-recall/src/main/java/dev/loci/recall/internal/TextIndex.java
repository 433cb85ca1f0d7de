package dev.loci.recall.internal;

import dev.loci.Namespace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.BoostQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.search.similarities.BM25Similarity;

/**
 * The lexical projection: one Lucene index per namespace (so BM25 statistics never mix tenants),
 * English analysis (stop words, Porter stemming), BM25 scoring. Kept in step with the journal by
 * the recall layer's apply, persisted under the data directory ({@code index/recall/text/<ns>})
 * with the journal sequence it reflects, or in memory when the engine has no data directory.
 *
 * <p>Changes ({@link #put}, {@link #remove}) are made by one thread at a time (the recall layer's
 * {@link TextBacklog} drain, with the engine's shared access, or recovery and erasure with its
 * exclusive access); {@link #search} runs under its shared lock, possibly from several threads, and
 * refreshes the near-real-time reader first, so it sees every change made before it.
 */
final class TextIndex {
  static final String FORMAT = "loci-recall-text-1";
  private static final String TEXT = "text";
  private static final String CONTEXT = "context";

  /** BM25's term-frequency saturation, Lucene's default. */
  static final float K1 = 1.2f;

  private final Analyzer analyzer = new EnglishAnalyzer();
  private final ShardSet shards;

  /** A BM25 hit. */
  record Hit(String id, double score) {}

  /** The index under {@code root}, or in memory when it is empty. */
  TextIndex(Optional<Path> root) {
    this.shards =
        new ShardSet(
            root,
            FORMAT,
            analyzer,
            new IndexShard.Tuning(10, Codec.getDefault())); // Lucene's default merging
  }

  /** The shards, for recovery and commits. */
  ShardSet shards() {
    return shards;
  }

  /**
   * Indexes the text of node {@code id} at {@code version}, and its context (empty for none) in a
   * field of its own, replacing what it had.
   */
  void put(Namespace ns, String id, int version, String text, String context) {
    Document doc = new Document();
    doc.add(new TextField(TEXT, text, Field.Store.NO));
    if (!context.isEmpty()) {
      doc.add(new TextField(CONTEXT, context, Field.Store.NO));
    }
    shards.shard(ns).put(id, version, doc);
  }

  /** Removes node {@code id} from the index. */
  void remove(Namespace ns, String id) {
    shards.find(ns).ifPresent(s -> s.remove(id));
  }

  /** The analyzed terms of {@code text}, each once, in order of first appearance. */
  List<String> terms(String text) {
    Set<String> out = new LinkedHashSet<>();
    try (TokenStream ts = analyzer.tokenStream(TEXT, text)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        out.add(term.toString());
      }
      ts.end();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return List.copyOf(out);
  }

  /**
   * The most terms one query searches for, below Lucene's limit of 1,024 clauses: a longer query
   * keeps its rarest terms (those that occur in the fewest nodes, which carry the most BM25
   * weight), and drops the terms no node holds, which could not score anyway.
   */
  static final int MAX_QUERY_TERMS = 1_000;

  /** {@code terms}, or if there are more than {@link #MAX_QUERY_TERMS}, the rarest present ones. */
  static List<String> rarest(IndexSearcher searcher, List<String> terms) throws IOException {
    if (terms.size() <= MAX_QUERY_TERMS) {
      return terms;
    }
    Map<String, Integer> df = new HashMap<>();
    for (String t : terms) {
      int n = searcher.getIndexReader().docFreq(new Term(TEXT, t));
      if (n > 0) {
        df.put(t, n);
      }
    }
    return df.entrySet().stream()
        .sorted(
            Map.Entry.<String, Integer>comparingByValue().thenComparing(Map.Entry.comparingByKey()))
        .limit(MAX_QUERY_TERMS)
        .map(Map.Entry::getKey)
        .toList();
  }

  /**
   * The {@code k} best BM25 matches of {@code query} among the nodes of {@code ns}: any analyzed
   * term may match (at most {@link #MAX_QUERY_TERMS} of them, see {@link #rarest}). Ordered by
   * score, then id, so ties do not depend on insertion order. Each term also matches the nodes'
   * context field, its BM25 score there times {@code contextWeight} (0 leaves the context out).
   * BM25 runs with k1 {@value #K1} and {@code b} = {@code lengthNorm}, which only scoring reads
   * (the index keeps each field's length whatever {@code b}), so it may differ per query.
   */
  List<Hit> search(Namespace ns, String query, int k, double contextWeight, double lengthNorm) {
    Optional<IndexShard> s = shards.find(ns);
    List<String> terms = terms(query);
    if (s.isEmpty() || terms.isEmpty()) {
      return List.of();
    }
    return s.get()
        .withSearcher(
            shared -> {
              IndexSearcher searcher = new IndexSearcher(shared.getIndexReader());
              searcher.setSimilarity(new BM25Similarity(K1, (float) lengthNorm));
              BooleanQuery.Builder any = new BooleanQuery.Builder();
              for (String t : rarest(searcher, terms)) {
                any.add(new TermQuery(new Term(TEXT, t)), BooleanClause.Occur.SHOULD);
                if (contextWeight > 0) {
                  any.add(
                      new BoostQuery(new TermQuery(new Term(CONTEXT, t)), (float) contextWeight),
                      BooleanClause.Occur.SHOULD);
                }
              }
              // ask for more than k so that ties cut at k are broken by id, not by document order
              TopDocs top = searcher.search(any.build(), k + 16);
              List<String> ids = IndexShard.ids(searcher, top.scoreDocs);
              List<Hit> hits = new ArrayList<>(top.scoreDocs.length);
              for (int i = 0; i < ids.size(); i++) {
                hits.add(new Hit(ids.get(i), top.scoreDocs[i].score));
              }
              hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(Hit::id));
              return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
            });
  }
}
