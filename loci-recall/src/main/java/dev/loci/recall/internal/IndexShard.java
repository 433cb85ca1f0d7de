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
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.function.Function;
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
import org.apache.lucene.store.NRTCachingDirectory;
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
 * <p>Storage failures. An index is a projection, so a failure to write it (a full disk) must not
 * fail a write whose batch is durable: {@link #put}, {@link #remove} and {@link #commit} keep
 * going. A failed flush closes Lucene's writer for good (a "tragic" failure, after which every use
 * throws {@code AlreadyClosedException}); the shard then counts as {@link #broken()}, changes are
 * dropped, searches fail with a {@link StorageException} (503, never a 500), and the owner {@link
 * #reopen}s it from its last commit and writes again the documents that differ from the graph.
 *
 * <p>Thread-safe as Lucene's writer and searcher manager are; commits are serialized, and a change
 * made while a commit runs may or may not be in it but always leaves the shard {@link #dirty()}, so
 * the next commit takes it; {@link #close} must not run concurrently with changes (the recall layer
 * calls it with exclusive access). A {@link #reopen} waits for searches in progress and searches
 * wait for it.
 */
final class IndexShard implements AutoCloseable {
  /** Segments flushed by a reopen up to this size stay in memory until a commit (MB). */
  static final double NRT_CACHE_SEGMENT_MB = 2.0;

  /** The most a shard keeps in memory that way (MB); beyond it, flushes go straight to disk. */
  static final double NRT_CACHE_MB = 16.0;

  /**
   * How a shard's writer is set up.
   *
   * @param segmentsPerTier the merge policy's segments per tier: fewer segments cost more merging
   *     and make searches that run once per segment (HNSW) faster
   * @param codec how segments are written, given whether the shard writes vector graphs yet ({@link
   *     #graphs()}); every segment records its formats by name, so a shard written with another
   *     codec of this Lucene version stays readable and is rewritten in this one as its segments
   *     merge
   */
  record Tuning(
      double segmentsPerTier, Function<BooleanSupplier, org.apache.lucene.codecs.Codec> codec) {
    /** Segments always written with {@code codec}. */
    Tuning(double segmentsPerTier, org.apache.lucene.codecs.Codec codec) {
      this(segmentsPerTier, graphs -> codec);
    }
  }

  static final String ID = "id";
  static final String VERSION = "v";
  private static final String SEQ_KEY = "loci.seq";
  private static final String FORMAT_KEY = "loci.format";

  private static final System.Logger LOG = System.getLogger(IndexShard.class.getName());

  private final Optional<Path> path;
  private final String format;
  private final Directory dir;
  private final java.util.concurrent.locks.ReentrantReadWriteLock swap =
      new java.util.concurrent.locks.ReentrantReadWriteLock();
  private volatile IndexWriter writer;
  private volatile SearcherManager searchers;
  private volatile long recordedSeq;
  private volatile boolean dirty;
  private volatile Throwable broken;
  private final AtomicBoolean graphs;
  private final AtomicBoolean mergedFlat = new AtomicBoolean();

  private IndexShard(
      Optional<Path> path,
      String format,
      Directory dir,
      IndexWriter writer,
      long recordedSeq,
      AtomicBoolean graphs)
      throws IOException {
    this.graphs = graphs;
    this.path = path;
    this.format = format;
    this.dir = dir;
    this.writer = writer;
    this.searchers = new SearcherManager(writer, null);
    this.recordedSeq = recordedSeq;
  }

  /** Whether a storage failure closed the writer: {@link #reopen} it. */
  boolean broken() {
    return broken != null;
  }

  private void broke(Exception e) {
    if (broken == null) {
      LOG.log(
          System.Logger.Level.WARNING,
          "index "
              + path.map(Path::toString).orElse("in memory")
              + " failed ("
              + e
              + "); searches answer 503 until it is reopened and caught up");
    }
    broken = e;
    dirty = true;
  }

  /**
   * Reopens a broken shard from its last commit (Lucene deletes the files the failed writer left),
   * so that the owner can write again the documents that differ from its records. Returns whether
   * the shard is usable; a shard that cannot be reopened yet (the disk is still full) stays broken.
   */
  boolean reopen(Analyzer analyzer, Tuning tuning) {
    if (broken == null) {
      return true;
    }
    swap.writeLock().lock();
    try {
      try {
        searchers.close();
      } catch (IOException | RuntimeException e) {
        // the old reader is discarded either way
      }
      try {
        writer.rollback();
      } catch (IOException | RuntimeException e) {
        // closed by the failure already
      }
      IndexWriter fresh = new IndexWriter(dir, config(analyzer, tuning, graphs));
      long seq = -1;
      Map<String, String> data = fresh.getLiveCommitData() == null ? Map.of() : commitData(fresh);
      if (format.equals(data.get(FORMAT_KEY)) && data.containsKey(SEQ_KEY)) {
        seq = Long.parseLong(data.get(SEQ_KEY));
      }
      writer = fresh;
      searchers = new SearcherManager(fresh, null);
      recordedSeq = seq;
      broken = null;
      dirty = true;
      return true;
    } catch (IOException | RuntimeException e) {
      broken = e;
      return false;
    } finally {
      swap.writeLock().unlock();
    }
  }

  private static Map<String, String> commitData(IndexWriter w) {
    Map<String, String> out = new HashMap<>();
    for (Map.Entry<String, String> e : w.getLiveCommitData()) {
      out.put(e.getKey(), e.getValue());
    }
    return out;
  }

  /**
   * Opens the index at {@code path} (in memory when empty) whose commits are of {@code format}.
   * {@code tuning} sets the merge policy and codec: fewer segments cost more merging and make
   * searches that run once per segment (HNSW) cheaper.
   *
   * @throws StorageException if the directory cannot be created or written
   */
  static IndexShard open(Optional<Path> path, String format, Analyzer analyzer, Tuning tuning) {
    AtomicBoolean graphs = new AtomicBoolean();
    if (path.isEmpty()) {
      try {
        Directory dir = new ByteBuffersDirectory();
        return new IndexShard(
            path, format, dir, new IndexWriter(dir, config(analyzer, tuning, graphs)), -1, graphs);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    Path p = path.get();
    try {
      return openExisting(p, format, analyzer, tuning, graphs);
    } catch (IOException | RuntimeException e) {
      System.getLogger(IndexShard.class.getName())
          .log(
              System.Logger.Level.WARNING,
              "index " + p + " is unreadable, rebuilding it: " + e.getMessage());
    }
    try {
      deleteTree(p);
      Files.createDirectories(p);
      Directory dir = onDisk(p);
      return new IndexShard(
          path, format, dir, new IndexWriter(dir, config(analyzer, tuning, graphs)), -1, graphs);
    } catch (IOException e) {
      throw new StorageException("cannot create index " + p + ": " + e.getMessage(), e);
    }
  }

  /**
   * The shard's directory on disk, with the small segments a reopen after a write flushes kept in
   * memory until a commit or a merge writes them out ({@link NRTCachingDirectory}): text search
   * reopens its reader after every write it must see, and writing each of those one-document
   * segments to disk cost more than the search itself.
   */
  private static Directory onDisk(Path p) throws IOException {
    return new NRTCachingDirectory(FSDirectory.open(p), NRT_CACHE_SEGMENT_MB, NRT_CACHE_MB);
  }

  private static IndexShard openExisting(
      Path p, String format, Analyzer analyzer, Tuning tuning, AtomicBoolean graphs)
      throws IOException {
    Files.createDirectories(p);
    Directory dir = onDisk(p);
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
      writer = new IndexWriter(dir, config(analyzer, tuning, graphs));
      if (seq < 0) {
        writer.deleteAll();
      }
      return new IndexShard(Optional.of(p), format, dir, writer, seq, graphs);
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

  private static IndexWriterConfig config(Analyzer analyzer, Tuning tuning, AtomicBoolean graphs) {
    IndexWriterConfig c = new IndexWriterConfig(analyzer);
    c.setCodec(tuning.codec().apply(graphs::get));
    c.setCommitOnClose(false);
    c.setRAMBufferSizeMB(64);
    // commits run under the engine's exclusive lock: never wait there for merges to finish
    c.setMaxFullFlushMergeWaitMillis(0);
    TieredMergePolicy merges = new TieredMergePolicy();
    merges.setForceMergeDeletesPctAllowed(0); // expungeDeletes leaves no deleted document
    merges.setSegmentsPerTier(tuning.segmentsPerTier());
    c.setMergePolicy(new FlatSegmentMerges(merges));
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
    if (broken != null) {
      return; // dropped: the reopen catches the shard up from the records
    }
    try {
      writer.updateDocument(new Term(ID, id), doc);
    } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
      broke(e);
    }
    dirty = true;
  }

  /** Removes the document of node {@code id}, if any. */
  void remove(String id) {
    if (broken != null) {
      return; // dropped: the reopen catches the shard up from the records
    }
    try {
      writer.deleteDocuments(new Term(ID, id));
    } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
      broke(e);
    }
    dirty = true;
  }

  /** Removes every document. */
  void removeAll() {
    if (broken != null) {
      return; // dropped: the reopen catches the shard up from the records
    }
    try {
      writer.deleteAll();
    } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
      broke(e);
    }
    dirty = true;
  }

  /**
   * Merges away deleted documents, so that index-wide statistics (BM25's document frequencies and
   * average length) are those of the live documents alone, as in a rebuilt index.
   */
  void expungeDeletes() {
    if (broken != null) {
      return; // dropped: the reopen catches the shard up from the records
    }
    try {
      writer.forceMergeDeletes();
      // the searcher still reads the merged-away segments, and Lucene keeps every file a reader
      // holds: move it to the merged ones so the next commit deletes the old files (erasure)
      searchers.maybeRefreshBlocking();
    } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
      broke(e);
    }
    dirty = true;
  }

  /**
   * Like {@link #expungeDeletes}, and then, if a deleted document is still in some segment, merges
   * the whole index into one segment, so that no file keeps a deleted document's terms or vector:
   * for erasure. {@code forceMergeDeletes} alone may choose no merge (seen with a segment from an
   * earlier session holding two deleted documents of three, while the replacements were buffered:
   * the erased text stayed in its files).
   */
  void expungeAllDeletes() {
    expungeDeletes();
    if (broken != null) {
      return;
    }
    try {
      if (writer.hasDeletions()) {
        writer.forceMerge(1);
        searchers.maybeRefreshBlocking();
      }
    } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
      broke(e);
    }
    dirty = true;
  }

  /**
   * Whether segments written from now on get vector graphs (the codec decides what that means; see
   * {@link VectorIndex}); false until {@link #startGraphs}, for the life of this object.
   */
  boolean graphs() {
    return graphs.get();
  }

  /** From now on, segments get vector graphs; returns whether this call switched them on. */
  boolean startGraphs() {
    return graphs.compareAndSet(false, true);
  }

  /**
   * How many documents the writer holds, added but not yet searchable ones and deleted ones not yet
   * merged away included: cheap, with no flush.
   */
  long pendingDocs() {
    return writer.getPendingNumDocs();
  }

  /**
   * Merges the segments whose vectors have no graph into one, written by the codec as it is now
   * ({@link FlatSegmentMerges}): in Lucene's merge threads unless {@code wait}. Searches and
   * changes go on meanwhile; a close rolls a running merge back, leaving the segments it would have
   * replaced.
   */
  void mergeFlat(boolean wait) {
    if (broken != null) {
      return;
    }
    try {
      writer.forceMerge(FlatSegmentMerges.FLAT_ONLY, wait);
      if (wait) {
        searchers.maybeRefreshBlocking();
      }
    } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
      broke(e);
    }
    dirty = true;
  }

  /** {@link #mergeFlat mergeFlat(false)}, the first time it is called on this object. */
  void mergeFlatOnce() {
    if (mergedFlat.compareAndSet(false, true)) {
      mergeFlat(false);
    }
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
    swap.readLock().lock();
    try {
      checkNotBroken();
      SearcherManager manager = searchers;
      try {
        manager.maybeRefreshBlocking(); // flushes what was added: may fail on a full disk
      } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
        broke(e);
        checkNotBroken();
      }
      IndexSearcher s = manager.acquire();
      try {
        return search.run(s);
      } finally {
        manager.release(s);
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } finally {
      swap.readLock().unlock();
    }
  }

  private void checkNotBroken() {
    Throwable b = broken;
    if (b != null) {
      throw new StorageException(
          "the index "
              + path.map(Path::toString).orElse("in memory")
              + " cannot be searched after a storage failure ("
              + b.getMessage()
              + "); it is reopened and caught up from the records once storage has room again",
          b);
    }
  }

  /**
   * Commits every change, recording {@code seq}: Lucene fsyncs the new files, then writes and
   * fsyncs the commit point, so a crash leaves either the old commit or this one.
   */
  synchronized void commit(long seq) {
    if (path.isEmpty()) {
      recordedSeq = seq;
      dirty = false;
      return;
    }
    if (broken != null) {
      return; // the last good commit stays; the reopen catches up from it
    }
    dirty = false; // before: a change made while committing sets it again
    try {
      writer.setLiveCommitData(
          Map.of(SEQ_KEY, Long.toString(seq), FORMAT_KEY, format).entrySet(), true);
      writer.commit();
    } catch (IOException | org.apache.lucene.store.AlreadyClosedException e) {
      dirty = true;
      if (!writer.isOpen()) {
        broke(e);
      } else {
        // the commit was rolled back and the changes stay buffered: the next commit retries
        LOG.log(
            System.Logger.Level.WARNING,
            "cannot commit index " + path.get() + " (" + e + "); retried at the next commit");
      }
      return;
    }
    recordedSeq = seq;
  }

  /** Closes without committing: what was not committed is dropped, the last commit stays. */
  @Override
  public void close() {
    try {
      searchers.close();
      if (broken != null) {
        writer.rollback(); // a writer closed by a failure may not close cleanly
      } else {
        writer.close();
      }
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
