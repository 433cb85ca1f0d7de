package dev.loci.bench;

import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.analysis.TokenStream;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.analysis.tokenattributes.CharTermAttribute;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.StoredField;
import org.apache.lucene.document.TextField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.StoredFields;
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.ByteBuffersDirectory;

/**
 * The peers of the LoCoMo benchmark, each indexing the same raw turn text (the {@code conversation}
 * pack's node content, with no enrichment) of one conversation and ranking turn ids for a question:
 * plain Lucene BM25, SQLite FTS5 {@code bm25()}, and an exact dense scan.
 */
final class LocomoPeers {
  private LocomoPeers() {}

  /** A peer: indexes the turns of one conversation at a time and ranks them. */
  interface Peer extends AutoCloseable {
    /** Its name in reports. */
    String name();

    /** Replaces what it indexed with {@code turns}: turn id to text, in order. */
    void index(Map<String, String> turns);

    /** The ids of the best {@code depth} turns for {@code question}, best first. */
    List<String> rank(String question, int depth);

    @Override
    default void close() {}
  }

  /** Plain Lucene BM25 (default similarity, English analyzer), any term may match. */
  static final class LuceneBm25 implements Peer {
    private final Analyzer analyzer = new EnglishAnalyzer();
    private DirectoryReader reader;

    @Override
    public String name() {
      return "peer:lucene_bm25";
    }

    @Override
    public void index(Map<String, String> turns) {
      ByteBuffersDirectory dir = new ByteBuffersDirectory();
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        for (Map.Entry<String, String> t : turns.entrySet()) {
          Document d = new Document();
          d.add(new StoredField("id", t.getKey()));
          d.add(new TextField("text", t.getValue(), Field.Store.NO));
          w.addDocument(d);
        }
        w.commit();
        close();
        reader = DirectoryReader.open(dir);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public List<String> rank(String question, int depth) {
      BooleanQuery.Builder any = new BooleanQuery.Builder();
      int terms = 0;
      try (TokenStream ts = analyzer.tokenStream("text", question)) {
        CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
        ts.reset();
        while (ts.incrementToken()) {
          any.add(new TermQuery(new Term("text", term.toString())), BooleanClause.Occur.SHOULD);
          terms++;
        }
        ts.end();
        if (terms == 0) {
          return List.of();
        }
        IndexSearcher searcher = new IndexSearcher(reader);
        StoredFields stored = searcher.storedFields();
        List<String> out = new ArrayList<>();
        for (ScoreDoc d : searcher.search(any.build(), depth).scoreDocs) {
          out.add(stored.document(d.doc).get("id"));
        }
        return out;
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }

    @Override
    public void close() {
      if (reader != null) {
        try {
          reader.close();
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        }
        reader = null;
      }
    }
  }

  /**
   * SQLite FTS5 in memory, Porter stemming over {@code unicode61}, ranked by {@code bm25()}; the
   * question's words are quoted and joined with {@code OR}.
   */
  static final class SqliteFts5 implements Peer {
    private final Connection db;

    SqliteFts5() {
      try {
        db = DriverManager.getConnection("jdbc:sqlite::memory:");
        try (Statement s = db.createStatement()) {
          s.execute(
              "CREATE VIRTUAL TABLE turns USING fts5(id UNINDEXED, text,"
                  + " tokenize='porter unicode61')");
        }
      } catch (SQLException e) {
        throw new IllegalStateException("SQLite FTS5 is not available: " + e.getMessage(), e);
      }
    }

    @Override
    public String name() {
      return "peer:sqlite_fts5";
    }

    @Override
    public void index(Map<String, String> turns) {
      try (Statement s = db.createStatement();
          PreparedStatement insert = db.prepareStatement("INSERT INTO turns VALUES (?, ?)")) {
        s.execute("DELETE FROM turns");
        for (Map.Entry<String, String> t : turns.entrySet()) {
          insert.setString(1, t.getKey());
          insert.setString(2, t.getValue());
          insert.executeUpdate();
        }
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    /** The FTS5 query for {@code question}: each word quoted, joined with OR; empty if none. */
    static String match(String question) {
      return Arrays.stream(question.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"))
          .filter(w -> !w.isEmpty())
          .distinct()
          .map(w -> "\"" + w + "\"")
          .collect(Collectors.joining(" OR "));
    }

    @Override
    public List<String> rank(String question, int depth) {
      String match = match(question);
      if (match.isEmpty()) {
        return List.of();
      }
      try (PreparedStatement q =
          db.prepareStatement(
              "SELECT id FROM turns WHERE turns MATCH ? ORDER BY bm25(turns), id LIMIT ?")) {
        q.setString(1, match);
        q.setInt(2, depth);
        List<String> out = new ArrayList<>();
        try (ResultSet r = q.executeQuery()) {
          while (r.next()) {
            out.add(r.getString(1));
          }
        }
        return out;
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }

    @Override
    public void close() {
      try {
        db.close();
      } catch (SQLException e) {
        throw new IllegalStateException(e);
      }
    }
  }

  /** Cosine similarity with the benchmark's embedding provider over every turn, exact. */
  static final class DenseScan implements Peer {
    private final EmbeddingProvider provider;
    private final Map<String, float[]> vectors = new LinkedHashMap<>();

    DenseScan(EmbeddingProvider provider) {
      this.provider = provider;
    }

    @Override
    public String name() {
      return "peer:dense_scan";
    }

    @Override
    public void index(Map<String, String> turns) {
      vectors.clear();
      List<String> ids = List.copyOf(turns.keySet());
      List<float[]> v = provider.embedDocuments(List.copyOf(turns.values()));
      for (int i = 0; i < ids.size(); i++) {
        vectors.put(ids.get(i), v.get(i));
      }
    }

    @Override
    public List<String> rank(String question, int depth) {
      float[] q = provider.embedQuery(question);
      Map<String, Double> scores = new LinkedHashMap<>();
      vectors.forEach((id, v) -> scores.put(id, dot(q, v)));
      return scores.entrySet().stream()
          .sorted(
              Map.Entry.<String, Double>comparingByValue(Comparator.reverseOrder())
                  .thenComparing(Map.Entry::getKey))
          .limit(depth)
          .map(Map.Entry::getKey)
          .toList();
    }

    private static double dot(float[] a, float[] b) {
      double s = 0;
      for (int i = 0; i < a.length; i++) {
        s += a[i] * b[i];
      }
      return s;
    }
  }
}
