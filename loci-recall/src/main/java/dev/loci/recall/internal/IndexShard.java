package dev.loci.recall.internal;

import dev.loci.StorageException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.apache.lucene.analysis.Analyzer;
import org.apache.lucene.document.BinaryDocValuesField;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.Field;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.document.StringField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.SegmentInfos;
import org.apache.lucene.index.Term;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.SearcherManager;
import org.apache.lucene.store.ByteBuffersDirectory;
import org.apache.lucene.store.Directory;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.BytesRef;

/**
 * One Lucene index of node documents (keyed by node id, each holding the node version it was made
 * from), on disk under a directory or in memory, with the journal sequence it reflects in its
 * commit user data.
 *
 * <p>Opening reads the last commit: its format name must be the one asked for, and its recorded
 * sequence is {@link #recordedSeq()}. A missing, unreadable or foreign index is deleted and started
 * empty, with recorded sequence -1, so that the caller rebuilds it. Nothing is committed except by
 * {@link #commit} (a Lucene commit: files fsynced, then the commit point), so a crash leaves the
 * last commit, which is behind the journal, never ahead of what it records.
 *
 * <p>Thread-safe as Lucene's writer and searcher manager are; {@link #commit} and {@link #close}
 * must not run concurrently with changes (the recall layer calls them with exclusive access).
 */
final class IndexShard implements AutoCloseable {
  static final String ID = "id";
  static final String VERSION = "v";
  private static final String SEQ_KEY = "loci.seq";
  private static final String FORMAT_KEY = "loci.format";

  private final Optional<Path> path;
  private final String format;
  private final Directory dir;
  private final IndexWriter writer;
  private final SearcherManager searchers;
  private volatile long recordedSeq;
  private volatile boolean dirty;

  private IndexShard(
      Optional<Path> path, String format, Directory dir, IndexWriter writer, long recordedSeq)
      throws IOException {
    this.path = path;
    this.format = format;
    this.dir = dir;
    this.writer = writer;
    this.searchers = new SearcherManager(writer, null);
    this.recordedSeq = recordedSeq;
  }

  /**
   * Opens the index at {@code path} (in memory when empty) whose commits are of {@code format}.
   * {@code segmentsPerTier} is the merge policy's: fewer segments cost more merging and make
   * searches that run once per segment (HNSW) cheaper.
   *
   * @throws StorageException if the directory cannot be created or written
   */
  static IndexShard open(
      Optional<Path> path, String format, Analyzer analyzer, double segmentsPerTier) {
    if (path.isEmpty()) {
      try {
        Directory dir = new ByteBuffersDirectory();
        return new IndexShard(
            path, format, dir, new IndexWriter(dir, config(analyzer, segmentsPerTier)), -1);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path p = path.get();
    try {
      return openExisting(p, format, analyzer, segmentsPerTier);
    } catch (IOException | RuntimeException e) {
      System.getLogger(IndexShard.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "index " + p + " is unreadable, rebuilding it: " + e.getMessage());
    }
    try {
      deleteTree(p);
      Files.createDirectories(p);
      Directory dir = FSDirectory.open(p);
      return new IndexShard(
          path, format, dir, new IndexWriter(dir, config(analyzer, segmentsPerTier)), -1);
    } catch (IOException e) {
      throw new StorageException("cannot create index " + p + ": " + e.getMessage(), e);
    }
  }

  private static IndexShard openExisting(
      Path p, String format, Analyzer analyzer, double segmentsPerTier) throws IOException {
    Files.createDirectories(p);
    Directory dir = FSDirectory.open(p);
    IndexWriter writer = null;
    try {
      long seq = -1;
      if (DirectoryReader.indexExists(dir)) {
        Map<String, String> data = SegmentInfos.readLatestCommit(dir).getUserData();
        if (format.equals(data.get(FORMAT_KEY)) && data.containsKey(SEQ_KEY)) {
          seq = Long.parseLong(data.get(SEQ_KEY));
        }
        // every segment must open, so a damaged index is found now rather than at a query
        try (DirectoryReader check = DirectoryReader.open(dir)) {
          for (LeafReaderContext leaf : check.leaves()) {
            leaf.reader().checkIntegrity();
          }
        }
      }
      writer = new IndexWriter(dir, config(analyzer, segmentsPerTier));
      if (seq < 0) {
        writer.deleteAll();
      }
      return new IndexShard(Optional.of(p), format, dir, writer, seq);
    } catch (IOException | RuntimeException e) {
      if (writer != null) {
        try {
          writer.rollback();
        } catch (IOException | RuntimeException cleanup) {
          e.addSuppressed(cleanup);
        }
      }
      dir.close();
      throw e;
    }
  }

  private static IndexWriterConfig config(Analyzer analyzer, double segmentsPerTier) {
    IndexWriterConfig c = new IndexWriterConfig(analyzer);
    c.setCommitOnClose(false);
    c.setRAMBufferSizeMB(64);
    // commits run under the engine's exclusive lock: never wait there for merges to finish
    c.setMaxFullFlushMergeWaitMillis(0);
    TieredMergePolicy merges = new TieredMergePolicy();
    merges.setForceMergeDeletesPctAllowed(0); // expungeDeletes leaves no deleted document
    merges.setSegmentsPerTier(segmentsPerTier);
    c.setMergePolicy(merges);
    return c;
  }

  /** The journal sequence the last commit recorded; -1 for an index started empty. */
  long recordedSeq() {
    return recordedSeq;
  }

  /** Adds or replaces the document of node {@code id}; {@code doc} gets the id and version. */
  void put(String id, int version, Document doc) {
    doc.add(new StringField(ID, id, Field.Store.NO));
    doc.add(new BinaryDocValuesField(ID, new BytesRef(id)));
    doc.add(new NumericDocValuesField(VERSION, version));
    try {
      writer.updateDocument(new Term(ID, id), doc);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    dirty = true;
  }

  /** Removes the document of node {@code id}, if any. */
  void remove(String id) {
    try {
      writer.deleteDocuments(new Term(ID, id));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    dirty = true;
  }

  /** Removes every document. */
  void removeAll() {
    try {
      writer.deleteAll();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    dirty = true;
  }

  /**
   * Merges away deleted documents, so that index-wide statistics (BM25's document frequencies and
   * average length) are those of the live documents alone, as in a rebuilt index.
   */
  void expungeDeletes() {
    try {
      writer.forceMergeDeletes();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    dirty = true;
  }

  /** Whether anything changed since the last commit. */
  boolean dirty() {
    return dirty;
  }

  /** The node version of every document, by node id. */
  Map<String, Integer> versions() {
    return withSearcher(
        s -> {
          Map<String, Integer> out = new HashMap<>();
          for (LeafReaderContext leaf : s.getIndexReader().leaves()) {
            Bits live = leaf.reader().getLiveDocs();
            BinaryDocValues ids = DocValues.getBinary(leaf.reader(), ID);
            NumericDocValues versions = DocValues.getNumeric(leaf.reader(), VERSION);
            for (int d = ids.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = ids.nextDoc()) {
              if ((live == null || live.get(d)) && versions.advanceExact(d)) {
                out.put(ids.binaryValue().utf8ToString(), (int) versions.longValue());
              }
            }
          }
          return out;
        });
  }

  /**
   * The node ids of {@code hits} (documents of {@code searcher}), read from doc values: no stored
   * field is decompressed, which is most of the cost of a small search.
   */
  static List<String> ids(IndexSearcher searcher, ScoreDoc[] hits) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    List<String> out = new ArrayList<>(hits.length);
    for (ScoreDoc h : hits) {
      LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(h.doc, leaves));
      BinaryDocValues ids = DocValues.getBinary(leaf.reader(), ID);
      if (!ids.advanceExact(h.doc - leaf.docBase)) {
        throw new IllegalStateException("index document " + h.doc + " has no node id");
      }
      out.add(ids.binaryValue().utf8ToString());
    }
    return out;
  }

  /** How many documents the index holds. */
  int size() {
    return withSearcher(s -> s.getIndexReader().numDocs());
  }

  /** A search over a reader that sees every change made so far. */
  @FunctionalInterface
  interface Search<T> {
    T run(IndexSearcher searcher) throws IOException;
  }

  /** Runs {@code search} over a refreshed searcher. */
  <T> T withSearcher(Search<T> search) {
    try {
      searchers.maybeRefreshBlocking();
      IndexSearcher s = searchers.acquire();
      try {
        return search.run(s);
      } finally {
        searchers.release(s);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Commits every change, recording {@code seq}: Lucene fsyncs the new files, then writes and
   * fsyncs the commit point, so a crash leaves either the old commit or this one.
   */
  void commit(long seq) {
    if (path.isEmpty()) {
      recordedSeq = seq;
      dirty = false;
      return;
    }
    try {
      writer.setLiveCommitData(
          Map.of(SEQ_KEY, Long.toString(seq), FORMAT_KEY, format).entrySet(), true);
      writer.commit();
    } catch (IOException e) {
      throw new StorageException("cannot commit index " + path.get() + ": " + e.getMessage(), e);
    }
    recordedSeq = seq;
    dirty = false;
  }

  /** Closes without committing: what was not committed is dropped, the last commit stays. */
  @Override
  public void close() {
    try {
      searchers.close();
      writer.close();
      dir.close();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Closes and deletes the index's directory. */
  void delete() {
    close();
    if (path.isPresent()) {
      deleteTree(path.get());
    }
  }

  static void deleteTree(Path p) {
    if (!Files.exists(p)) {
      return;
    }
    try (Stream<Path> files = Files.walk(p)) {
      for (Path f : files.sorted(Comparator.reverseOrder()).toList()) {
        Files.delete(f);
      }
    } catch (IOException e) {
      throw new StorageException("cannot delete " + p + ": " + e.getMessage(), e);
    }
  }
}
