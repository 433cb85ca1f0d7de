package dev.loci.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
import org.apache.lucene.index.Term;
import org.apache.lucene.search.BooleanClause;
import org.apache.lucene.search.BooleanQuery;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.TermQuery;
import org.apache.lucene.store.FSDirectory;

/**
 * The lexical peer of {@code loci bench recall}: a bare Lucene BM25 index of the same texts,
 * searched the way Loci's lexical mode is. Not thread-safe.
 */
final class LucenePeer implements AutoCloseable {
  private final Analyzer analyzer = new EnglishAnalyzer();
  private final FSDirectory dir;
  private final DirectoryReader reader;
  private final IndexSearcher searcher;

  LucenePeer(Path path, String[] texts) {
    try {
      dir = FSDirectory.open(path);
      try (IndexWriter w = new IndexWriter(dir, new IndexWriterConfig(analyzer))) {
        for (int i = 0; i < texts.length; i++) {
          Document d = new Document();
          d.add(new StoredField("id", "n" + i));
          d.add(new TextField("text", texts[i], Field.Store.NO));
          w.addDocument(d);
        }
        w.commit();
      }
      reader = DirectoryReader.open(dir);
      searcher = new IndexSearcher(reader);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  List<String> search(String query) {
    BooleanQuery.Builder any = new BooleanQuery.Builder();
    try (TokenStream ts = analyzer.tokenStream("text", query)) {
      CharTermAttribute term = ts.addAttribute(CharTermAttribute.class);
      ts.reset();
      while (ts.incrementToken()) {
        any.add(new TermQuery(new Term("text", term.toString())), BooleanClause.Occur.SHOULD);
      }
      ts.end();
      List<String> out = new ArrayList<>();
      for (var d : searcher.search(any.build(), RecallBenchmark.K).scoreDocs) {
        out.add(searcher.storedFields().document(d.doc).get("id"));
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    try {
      reader.close();
      dir.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }
}
