package dev.loci.recall.internal;

import dev.loci.Namespace;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The lexical projection: one in-memory Lucene index per namespace (so BM25 statistics never mix
 * tenants), English analysis (stop words, Porter stemming), BM25 scoring. Kept in step with the
 * journal by the recall layer's apply; rebuilt from the snapshot and journal on open, never
 * persisted.
 *
 * <p>Changes ({@link #put}, {@link #remove}, {@link #clear}) are made under the engine's exclusive
 * lock; {@link #search} runs under its shared lock, possibly from several threads, and refreshes
 * the near-real-time reader first, so it sees every applied change.
 */
final class TextIndex {
  private static final String ID = "id";
  private static final String TEXT = "text";

  private final Analyzer analyzer = new EnglishAnalyzer();
  private final Map<Namespace, Shard> shards = new ConcurrentHashMap<>();

  /** A BM25 hit. */
  record Hit(String id, double score) {}

  private final class Shard {
    final IndexWriter writer;
    final SearcherManager searchers;

    Shard() {
      try {
        writer = new IndexWriter(new ByteBuffersDirectory(), new IndexWriterConfig(analyzer));
        searchers = new SearcherManager(writer, null);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }

  /** Indexes the text of node {@code id}, replacing what it had. */
  void put(Namespace ns, String id, String text) {
    Document doc = new Document();
    doc.add(new StringField(ID, id, Field.Store.NO));
    doc.add(new StoredField(ID, id));
    doc.add(new TextField(TEXT, text, Field.Store.NO));
    try {
      shards.computeIfAbsent(ns, k -> new Shard()).writer.updateDocument(new Term(ID, id), doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Removes node {@code id} from the index. */
  void remove(Namespace ns, String id) {
    Shard s = shards.get(ns);
    if (s == null) {
      return;
    }
    try {
      s.writer.deleteDocuments(new Term(ID, id));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Forgets every namespace. */
  void clear() {
    shards.clear();
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
   * The {@code k} best BM25 matches of {@code query} among the nodes of {@code ns}: any analyzed
   * term may match. Ordered by score, then id, so ties do not depend on insertion order.
   */
  List<Hit> search(Namespace ns, String query, int k) {
    Shard s = shards.get(ns);
    List<String> terms = terms(query);
    if (s == null || terms.isEmpty()) {
      return List.of();
    }
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    for (String t : terms) {
      any.add(new TermQuery(new Term(TEXT, t)), BooleanClause.Occur.SHOULD);
    }
    try {
      s.searchers.maybeRefreshBlocking();
      IndexSearcher searcher = s.searchers.acquire();
      try {
        // ask for more than k so that ties cut at k are broken by id, not by document order
        TopDocs top = searcher.search(any.build(), k + 16);
        StoredFields stored = searcher.storedFields();
        List<Hit> hits = new ArrayList<>(top.scoreDocs.length);
        for (ScoreDoc d : top.scoreDocs) {
          hits.add(new Hit(stored.document(d.doc).get(ID), d.score));
        }
        hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(Hit::id));
        return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
      } finally {
        s.searchers.release(searcher);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
