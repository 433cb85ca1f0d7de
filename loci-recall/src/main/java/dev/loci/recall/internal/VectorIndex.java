package dev.loci.recall.internal;

import dev.loci.Namespace;
import dev.loci.recall.spi.EmbeddingProvider;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.PriorityQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.IntSupplier;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.codecs.perfield.PerFieldKnnVectorsFormat;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.BinaryDocValues;
import org.apache.lucene.index.DocValues;
import org.apache.lucene.index.FieldInfo;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.Bits;
import org.apache.lucene.util.VectorUtil;

/**
 * The vector projection: node embeddings per embedding model and namespace, in Lucene indexes
 * ({@code index/recall/vectors/<model>/<ns>}, or in memory) searched through Lucene's HNSW graph,
 * or by an exact scan of the same vectors while a namespace holds fewer than {@link #exactBelow()}
 * of them.
 *
 * <p>Deferred graphs. The exact scan reads no graph, so a namespace's segments are written without
 * one ({@link FlatVectorFormat}: building it was most of an ingest's CPU) until the namespace
 * reaches {@link #exactBelow()} vectors: then its shard {@linkplain IndexShard#startGraphs starts
 * graphs} (segments started in memory or merged from then on get one) and the add that crossed the
 * threshold (or, if that merge did not end before the shard was closed, the first search that finds
 * segments without a graph) merges those, and only those, into one segment with a graph, in
 * Lucene's merge threads ({@link FlatSegmentMerges}). The switch is made again, from the size, each
 * time a shard is opened (by the first add or search that sees the size). Search never depends on
 * how far that went: segments with a graph are searched through it, those without are scanned, and
 * the best of both kept, so results below the threshold are exactly those of a scan, as before, and
 * an index written by an earlier version (all graphs) reads as it did. A crash at any point leaves
 * the last commit, in whichever formats its segments were written.
 *
 * <p>A model's vectors are computed when it is first used (by the provider a {@code RecallMemory}
 * names) and kept: a node put or removed drops its vector in every model and, when live, joins the
 * model's pending set, which the memory embeds outside the engine's lock before the next recall
 * ({@link RecallLayer#missingVectors}, {@link RecallLayer#addVectors}).
 *
 * <p>Vectors are unit length (the {@link EmbeddingProvider} contract), so similarity is the dot
 * product; Lucene reports {@code (1 + dot) / 2}, which is mapped back to the cosine.
 *
 * <p>Concurrency. Dropping and pending changes happen under the engine's exclusive lock (apply);
 * searching and adding computed vectors under its shared lock, from any number of threads and
 * models. Adding under the shared lock is safe because:
 *
 * <ul>
 *   <li>{@link RecallLayer#addVectors} checks, under the same shared lock, that each node is still
 *       live at the version its text was read at, and apply (which drops a changed or removed
 *       node's vector) needs the exclusive lock, so no change comes between the check and the add;
 *       a vector computed for an old version is skipped and the new version stays pending. A (node,
 *       version) pair always names the same content, so two threads adding it add equal vectors,
 *       and Lucene's {@code updateDocument} on one id keeps only one document;
 *   <li>the pending maps are concurrent and an add removes only the version it stored;
 *   <li>Lucene's writer and searcher manager are thread-safe, and a search runs on one
 *       point-in-time reader, so the exact/HNSW choice and the scan see one fixed set of vectors
 *       while adds go on;
 *   <li>commits and close need the exclusive lock, so none runs during an add, except the first
 *       commit of a model {@link #model(EmbeddingProvider, java.util.function.Consumer)} opens,
 *       which no one else sees yet; after close the layer refuses every add and search.
 * </ul>
 *
 * <p>{@code RecallConcurrencyTest} checks the result: every live node ends with the vector of its
 * current content and version in every model, and removed nodes are never recalled.
 */
final class VectorIndex {
  /** Below this many vectors in a namespace, search scans them all instead of using HNSW. */
  static final int DEFAULT_EXACT_BELOW = 20_000;

  static final String VECTOR = "vec";

  /**
   * The merge policy's segments per tier for vector indexes (Lucene's default is 10): an HNSW
   * search runs once per segment, so fewer, larger segments answer faster, for more merging on
   * ingest.
   */
  static final double VECTOR_SEGMENTS_PER_TIER = 3;

  /**
   * How many candidates an HNSW search explores at least (its {@code ef}) in a namespace of up to
   * {@link #CANDIDATES_GROW_ABOVE} vectors; see {@link #candidates}.
   */
  static final int HNSW_CANDIDATES = 100;

  /**
   * The namespace size above which the HNSW search's candidate count grows; see {@link
   * #candidates}.
   */
  static final int CANDIDATES_GROW_ABOVE = 100_000;

  /** The HNSW search's candidate count at a million vectors; see {@link #candidates}. */
  static final int CANDIDATES_AT_A_MILLION = 600;

  /** The most candidates an HNSW search explores, whatever the size, unless more are kept. */
  static final int MAX_CANDIDATES = 5_000;

  /** How the HNSW graphs are built; see {@link VectorCodec} for indexes written otherwise. */
  static final VectorCodec GRAPH = VectorCodec.LUCENE_DEFAULT;

  private final Optional<Path> root;
  private final Map<String, Model> models = new ConcurrentHashMap<>();
  private volatile int exactBelow = DEFAULT_EXACT_BELOW;

  /** A cosine hit. */
  record Hit(String id, double score) {}

  /** The vectors of one model: a shard per namespace and the nodes waiting to be embedded. */
  static final class Model {
    final String id;
    final int dimension;
    final ShardSet shards;
    final Map<Namespace, Map<String, Integer>> pending = new ConcurrentHashMap<>();
    private final IntSupplier exactBelow;

    Model(String id, int dimension, ShardSet shards, IntSupplier exactBelow) {
      this.id = id;
      this.dimension = dimension;
      this.shards = shards;
      this.exactBelow = exactBelow;
    }

    Map<String, Integer> pending(Namespace ns) {
      return pending.computeIfAbsent(ns, n -> new ConcurrentHashMap<>());
    }
  }

  /** The index under {@code root}, or in memory when it is empty. */
  VectorIndex(Optional<Path> root) {
    this.root = root;
  }

  /** The namespace size from which search uses HNSW. */
  int exactBelow() {
    return exactBelow;
  }

  /** Sets the namespace size from which search uses HNSW (tests force HNSW on small corpora). */
  void exactBelow(int n) {
    if (n < 0) {
      throw new IllegalArgumentException("exactBelow must be 0 or more, found " + n);
    }
    exactBelow = n;
    // a test that forces HNSW gets graphs now, not after a merge in the background
    for (Model m : models.values()) {
      m.shards.forEachOpen(
          s -> {
            if (!s.broken() && s.size() >= n) {
              s.startGraphs();
              if (s.withSearcher(VectorIndex::anyFlat)) {
                s.mergeFlat(true);
              }
            }
          });
    }
  }

  /** The models in use. */
  Iterable<Model> models() {
    return models.values();
  }

  /** The model of {@code id}, if in use. */
  Optional<Model> model(String id) {
    return Optional.ofNullable(models.get(id));
  }

  /**
   * The model of {@code provider}, opened on first use; {@code opened} runs once, on the new model,
   * before anyone else sees it.
   */
  Model model(EmbeddingProvider provider, java.util.function.Consumer<Model> opened) {
    return models.computeIfAbsent(
        provider.modelId(),
        id -> {
          String format = "loci-recall-vectors-1 " + id + " " + provider.dimension();
          Model m =
              new Model(
                  id,
                  provider.dimension(),
                  new ShardSet(
                      root.map(r -> r.resolve(dirName(id))),
                      format,
                      ANALYZER,
                      new IndexShard.Tuning(VECTOR_SEGMENTS_PER_TIER, GRAPH::codec)),
                  this::exactBelow);
          opened.accept(m);
          return m;
        });
  }

  private static final StandardAnalyzer ANALYZER = new StandardAnalyzer();

  /** A directory name for a model id: safe characters kept, others replaced, plus a hash. */
  static String dirName(String modelId) {
    String safe = modelId.replaceAll("[^A-Za-z0-9._-]", "_");
    return safe + "-" + Integer.toHexString(modelId.hashCode());
  }

  /** Node {@code id} is now at {@code version}: its old vectors go, it waits to be embedded. */
  void changed(Namespace ns, String id, int version) {
    for (Model m : models.values()) {
      m.shards.find(ns).ifPresent(s -> s.remove(id));
      m.pending(ns).put(id, version);
    }
  }

  /** Merges away every deleted vector document of {@code ns} in every model (erasure). */
  void expungeAllDeletes(Namespace ns) {
    models.values().forEach(m -> m.shards.find(ns).ifPresent(IndexShard::expungeAllDeletes));
  }

  /** Node {@code id} was removed: its vectors go. */
  void removed(Namespace ns, String id) {
    for (Model m : models.values()) {
      m.shards.find(ns).ifPresent(s -> s.remove(id));
      m.pending(ns).remove(id);
    }
  }

  /** Stores the vector of node {@code id} at {@code version} and takes it off the pending set. */
  static void add(Model m, Namespace ns, String id, int version, float[] vector) {
    Document doc = new Document();
    doc.add(new KnnFloatVectorField(VECTOR, vector, VectorSimilarityFunction.DOT_PRODUCT));
    IndexShard shard = m.shards.shard(ns);
    // before the add: a segment in memory takes its format with its first vector; the count
    // includes deleted documents not merged away yet, so the switch may come a little early
    boolean crossed =
        !shard.graphs()
            && shard.pendingDocs() + 1 >= m.exactBelow.getAsInt()
            && shard.startGraphs();
    shard.put(id, version, doc);
    if (crossed) {
      // the vectors written without a graph get one now, in Lucene's merge threads, while the
      // ingest goes on: left to the first search, every search until that merge ended (tens of
      // seconds at 20,000 vectors) also scanned them, most of an `embedding` query's time
      shard.mergeFlatOnce();
    }
    m.pending(ns).remove(id, version);
  }

  /**
   * The {@code k} nodes of {@code ns} most similar to {@code query} with a positive cosine, best
   * first, ties by id, among the vectors computed so far.
   */
  List<Hit> search(Model m, Namespace ns, float[] query, int k) {
    Optional<IndexShard> shard = m.shards.find(ns);
    if (shard.isEmpty() || k < 1) {
      return List.of();
    }
    IndexShard index = shard.get();
    return index.withSearcher(
        searcher -> {
          int n = searcher.getIndexReader().numDocs();
          if (n == 0) {
            return List.of();
          }
          int keep = k + 16;
          List<Scored> found = new ArrayList<>();
          if (n >= exactBelow) {
            index.startGraphs();
            // the graph search explores candidates(n, k) (its ef) and the best k + 16 are kept;
            // it finds nothing in segments without a graph, which are scanned
            TopDocs top =
                searcher.search(new KnnFloatVectorQuery(VECTOR, query, candidates(n, k)), keep);
            for (ScoreDoc d : top.scoreDocs) {
              found.add(new Scored(d.doc, 2.0 * d.score - 1));
            }
            if (anyFlat(searcher)) {
              found.addAll(scan(searcher, query, keep, true));
              index.mergeFlatOnce();
            }
          } else {
            found.addAll(scan(searcher, query, keep, false));
          }
          ScoreDoc[] docs = new ScoreDoc[found.size()];
          for (int i = 0; i < docs.length; i++) {
            docs[i] = new ScoreDoc(found.get(i).doc(), 0);
          }
          List<String> ids = IndexShard.ids(searcher, docs);
          List<Hit> hits = new ArrayList<>();
          for (int i = 0; i < docs.length; i++) {
            hits.add(new Hit(ids.get(i), found.get(i).score()));
          }
          hits.removeIf(h -> !(h.score() > 0));
          hits.sort(Comparator.comparingDouble(Hit::score).reversed().thenComparing(Hit::id));
          return List.copyOf(hits.subList(0, Math.min(k, hits.size())));
        });
  }

  /**
   * How many candidates the HNSW search explores (its {@code ef}) for the best {@code k} of {@code
   * vectors}: {@link #HNSW_CANDIDATES} up to {@link #CANDIDATES_GROW_ABOVE} vectors, then growing
   * as a power of the size through {@link #CANDIDATES_AT_A_MILLION} at a million (171 at 200,000,
   * 294 at 400,000), at most {@link #MAX_CANDIDATES}, and never fewer than the {@code k + 16} kept.
   *
   * <p>Why: a graph search finds a smaller share of the exact top 10 as the graph grows for the
   * same {@code ef}. On bge-small-derived vectors (docs/benchmarks.md, "The candidate count at
   * 1,000,000") recall@10 with Loci's graphs (M 16, beamWidth 100) and 100 candidates was 0.98 at
   * 100,000, 0.92 at 400,000 (0.98 with this count, 294) and 0.79 at a million (0.92 with 400, 0.95
   * with 600); below 100,000 the 10 ms latency goal leaves no room for more. Sizes above a million
   * are extrapolated, not measured.
   */
  static int candidates(int vectors, int k) {
    double exponent = Math.log10((double) CANDIDATES_AT_A_MILLION / HNSW_CANDIDATES);
    double ratio = Math.max(1.0, (double) vectors / CANDIDATES_GROW_ABOVE);
    long ef = Math.round(HNSW_CANDIDATES * Math.pow(ratio, exponent));
    return (int) Math.max(k + 16L, Math.min(ef, MAX_CANDIDATES));
  }

  /** An index document and its cosine. */
  private record Scored(int doc, double score) {}

  /**
   * The {@code keep} live vectors of {@code searcher} most similar to {@code query} by an exact
   * scan, of every segment or ({@code flatOnly}) of the segments without a graph.
   */
  private static List<Scored> scan(
      IndexSearcher searcher, float[] query, int keep, boolean flatOnly) throws IOException {
    // a min-heap of the best kept
    PriorityQueue<Scored> best = new PriorityQueue<>(Comparator.comparingDouble(Scored::score));
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      FloatVectorValues values = leaf.reader().getFloatVectorValues(VECTOR);
      if (values == null || (flatOnly && !flat(leaf))) {
        continue;
      }
      Bits live = leaf.reader().getLiveDocs();
      for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
        if (live != null && !live.get(d)) {
          continue;
        }
        double cos = VectorUtil.dotProduct(query, values.vectorValue());
        if (best.size() < keep) {
          best.add(new Scored(leaf.docBase + d, cos));
        } else if (cos > best.peek().score()) {
          best.poll();
          best.add(new Scored(leaf.docBase + d, cos));
        }
      }
    }
    return new ArrayList<>(best);
  }

  /** Whether some segment of {@code searcher} holds vectors without a graph. */
  static boolean anyFlat(IndexSearcher searcher) {
    for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
      if (flat(leaf)) {
        return true;
      }
    }
    return false;
  }

  private static boolean flat(LeafReaderContext leaf) {
    FieldInfo field = leaf.reader().getFieldInfos().fieldInfo(VECTOR);
    return field != null
        && FlatVectorFormat.NAME.equals(
            field.getAttribute(PerFieldKnnVectorsFormat.PER_FIELD_FORMAT_KEY));
  }

  /** A stored vector document: the node, the version it was computed from, the vector. */
  record Stored(String id, int version, float[] vector) {}

  /**
   * Every live vector document of {@code ns} in model {@code m}, several per node if the index
   * holds duplicates (for tests that check the index against the graph).
   */
  List<Stored> stored(Model m, Namespace ns) {
    Optional<IndexShard> shard = m.shards.find(ns);
    if (shard.isEmpty()) {
      return List.of();
    }
    return shard
        .get()
        .withSearcher(
            searcher -> {
              List<Stored> out = new ArrayList<>();
              for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
                FloatVectorValues values = leaf.reader().getFloatVectorValues(VECTOR);
                if (values == null) {
                  continue;
                }
                Bits live = leaf.reader().getLiveDocs();
                BinaryDocValues ids = DocValues.getBinary(leaf.reader(), IndexShard.ID);
                NumericDocValues versions = DocValues.getNumeric(leaf.reader(), IndexShard.VERSION);
                for (int d = values.nextDoc();
                    d != DocIdSetIterator.NO_MORE_DOCS;
                    d = values.nextDoc()) {
                  if ((live == null || live.get(d))
                      && ids.advanceExact(d)
                      && versions.advanceExact(d)) {
                    out.add(
                        new Stored(
                            ids.binaryValue().utf8ToString(),
                            (int) versions.longValue(),
                            values.vectorValue().clone()));
                  }
                }
              }
              return out;
            });
  }

  /** Whether a storage failure closed the writer of some model's shard. */
  boolean anyBroken() {
    for (Model m : models.values()) {
      if (m.shards.anyBroken()) {
        return true;
      }
    }
    return false;
  }

  /** Commits every model's changed shards ({@code all}: every shard) recording {@code seq}. */
  void commit(long seq, boolean all) {
    models.values().forEach(m -> m.shards.commit(seq, all));
  }

  /** Closes every model's shards without committing. */
  void close() {
    models.values().forEach(m -> m.shards.close());
  }

  static float[] checked(EmbeddingProvider provider, float[] v) {
    if (v.length != provider.dimension()) {
      throw new IllegalStateException(
          "embedding provider "
              + provider.modelId()
              + " returned a vector of "
              + v.length
              + " dimensions, expected "
              + provider.dimension());
    }
    return v;
  }
}
