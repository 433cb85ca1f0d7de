package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Namespace;
import dev.loci.recall.spi.EmbeddingProvider;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.IntStream;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.util.VectorUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Vectors are written without an HNSW graph while a namespace is searched by the exact scan, and
 * get one once it crosses {@link VectorIndex#exactBelow()}: the scan's results are those it gave
 * over graph segments, and search keeps finding every vector across the switch and a reopen.
 */
class DeferredGraphTest {
  private static final Namespace NS = Namespace.of("q");
  private static final long SEED = 20261126L;

  @TempDir Path tmp;

  /** A provider that only names the model: the vectors come from the test. */
  private static final EmbeddingProvider MODEL =
      new EmbeddingProvider() {
        @Override
        public String modelId() {
          return "test-vectors";
        }

        @Override
        public int dimension() {
          return 32;
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
          throw new UnsupportedOperationException("vectors are added by the test");
        }
      };

  private static List<float[]> vectors(Random r, int n) {
    List<float[]> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      float[] v = new float[MODEL.dimension()];
      for (int d = 0; d < v.length; d++) {
        v[d] = (float) r.nextGaussian();
      }
      out.add(VectorUtil.l2normalize(v));
    }
    return out;
  }

  private static boolean anyFlat(VectorIndex index) {
    return shard(index).withSearcher(VectorIndex::anyFlat);
  }

  private static IndexShard shard(VectorIndex index) {
    return index.model(MODEL.modelId()).orElseThrow().shards.find(NS).orElseThrow();
  }

  private static void addAll(VectorIndex index, List<float[]> vectors, int from, int to) {
    VectorIndex.Model m = index.model(MODEL, x -> {});
    for (int i = from; i < to; i++) {
      VectorIndex.add(m, NS, "n" + i, 1, vectors.get(i));
    }
  }

  /** The ids of the {@code k} vectors of {@code corpus[0, n)} nearest {@code q}, by brute force. */
  private static List<String> bruteForce(List<float[]> corpus, int n, float[] q, int k) {
    return IntStream.range(0, n)
        .boxed()
        .sorted(
            Comparator.comparingDouble((Integer i) -> -VectorUtil.dotProduct(q, corpus.get(i)))
                .thenComparing(i -> "n" + i))
        .limit(k)
        .map(i -> "n" + i)
        .toList();
  }

  @Test
  void search_belowTheThreshold_writesNoGraph_andGivesExactlyTheResultsOfGraphSegments() {
    Random r = new Random(SEED);
    List<float[]> corpus = vectors(r, 1_500);
    VectorIndex deferred = new VectorIndex(Optional.empty());
    // what every index was before: graph segments, searched by the scan below the threshold
    VectorIndex graphs = new VectorIndex(Optional.empty());
    graphs.exactBelow(0);
    addAll(graphs, corpus, 0, corpus.size());
    graphs.exactBelow(VectorIndex.DEFAULT_EXACT_BELOW);
    addAll(deferred, corpus, 0, corpus.size());
    try {
      assertThat(anyFlat(deferred)).as("written without a graph").isTrue();
      assertThat(anyFlat(graphs)).as("written with graphs").isFalse();
      VectorIndex.Model d = deferred.model(MODEL.modelId()).orElseThrow();
      VectorIndex.Model g = graphs.model(MODEL.modelId()).orElseThrow();
      for (float[] q : vectors(r, 60)) {
        List<VectorIndex.Hit> fromFlat = deferred.search(d, NS, q, 10);
        assertThat(fromFlat).as("seed %d", SEED).isEqualTo(graphs.search(g, NS, q, 10));
        assertThat(fromFlat.stream().map(VectorIndex.Hit::id).toList())
            .isEqualTo(bruteForce(corpus, corpus.size(), q, fromFlat.size()));
      }
    } finally {
      deferred.close();
      graphs.close();
    }
  }

  @Test
  void crossingTheThreshold_buildsTheGraph_andSearchFindsEveryVectorBeforeAndAfterAReopen() {
    Random r = new Random(SEED + 1);
    int threshold = 600;
    List<float[]> corpus = vectors(r, 900);
    List<float[]> queries = vectors(r, 40);
    Path root = tmp.resolve("vectors");
    VectorIndex index = new VectorIndex(Optional.of(root));
    index.exactBelow(threshold);
    addAll(index, corpus, 0, 500);
    index.commit(1, true);
    VectorIndex.Model m = index.model(MODEL.modelId()).orElseThrow();
    assertThat(index.search(m, NS, queries.get(0), 5)).isNotEmpty();
    assertThat(anyFlat(index)).isTrue();

    // crosses the threshold: graph search plus a scan of what has no graph yet
    addAll(index, corpus, 500, 900);
    assertFindsNearest(index, corpus, 900, queries, "after the crossing");
    // exactBelow's setter waits for the merge of the graph-less segments, as tests that force
    // HNSW need
    index.exactBelow(threshold);
    assertThat(anyFlat(index)).as("every segment has a graph").isFalse();
    assertFindsNearest(index, corpus, 900, queries, "after the merge");
    index.commit(2, true);
    index.close();

    VectorIndex reopened = new VectorIndex(Optional.of(root));
    try {
      reopened.exactBelow(threshold);
      reopened.model(MODEL, x -> {});
      assertThat(reopened.model(MODEL.modelId()).orElseThrow().shards.shard(NS).recordedSeq())
          .isEqualTo(2);
      assertFindsNearest(reopened, corpus, 900, queries, "after a reopen");
      // vectors added after the reopen land in graph segments: the switch is made again
      List<float[]> more = vectors(r, 50);
      List<float[]> all = new ArrayList<>(corpus);
      all.addAll(more);
      addAll(reopened, all, 900, 950);
      assertFindsNearest(reopened, all, 950, queries, "after adds past a reopen");
      assertThat(anyFlat(reopened)).as("no segment without a graph written").isFalse();
    } finally {
      reopened.close();
    }
  }

  @Test
  void crossingTheThreshold_withNoSearch_mergesTheGraphlessSegmentsInTheBackground()
      throws InterruptedException {
    Random r = new Random(SEED + 3);
    int threshold = 600;
    List<float[]> corpus = vectors(r, 700);
    VectorIndex index = new VectorIndex(Optional.of(tmp.resolve("ingest")));
    try {
      index.exactBelow(threshold);
      addAll(index, corpus, 0, 500);
      index.commit(1, true);
      assertThat(anyFlat(index)).as("below the threshold: no graph").isTrue();

      // an ingest's adds cross the threshold; nothing searches
      addAll(index, corpus, 500, 700);

      long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
      while (anyFlat(index) && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      assertThat(anyFlat(index)).as("every segment has a graph, with no search").isFalse();
      assertThat(shard(index).size()).isEqualTo(700);
      assertFindsNearest(index, corpus, 700, vectors(r, 30), "after the background merge");
    } finally {
      index.close();
    }
  }

  @Test
  void mergeOfGraphlessSegments_rewritesOnlyThose_withAGraph() {
    Random r = new Random(SEED + 2);
    List<float[]> corpus = vectors(r, 300);
    try (IndexShard shard =
        IndexShard.open(
            Optional.empty(),
            "test-vectors-1",
            new StandardAnalyzer(),
            new IndexShard.Tuning(10, VectorIndex.GRAPH::codec))) {
      for (int i = 0; i < 300; i++) {
        if (i == 100) {
          shard.startGraphs();
        }
        Document doc = new Document();
        doc.add(
            new KnnFloatVectorField(
                VectorIndex.VECTOR,
                corpus.get(i),
                org.apache.lucene.index.VectorSimilarityFunction.DOT_PRODUCT));
        shard.put("n" + i, 1, doc);
        if (i % 100 == 99) {
          shard.size(); // a refresh: the segment in memory is flushed
        }
      }
      List<String> before = segmentFormats(shard);
      assertThat(before)
          .containsExactly(
              FlatVectorFormat.NAME, "Lucene99HnswVectorsFormat", "Lucene99HnswVectorsFormat");
      List<String> graphNames = segmentNames(shard).subList(1, 3);

      shard.mergeFlat(true);

      assertThat(segmentFormats(shard)).containsOnly("Lucene99HnswVectorsFormat").hasSize(3);
      assertThat(segmentNames(shard))
          .as("the graph segments are not rewritten")
          .containsAll(graphNames);
      assertThat(shard.size()).isEqualTo(300);
      shard.mergeFlat(true); // nothing left to merge
      assertThat(segmentNames(shard)).containsAll(graphNames).hasSize(3);
    }
  }

  private static List<String> segmentFormats(IndexShard shard) {
    return shard.withSearcher(
        s ->
            s.getIndexReader().leaves().stream()
                .map(
                    l ->
                        l.reader()
                            .getFieldInfos()
                            .fieldInfo(VectorIndex.VECTOR)
                            .getAttribute("PerFieldKnnVectorsFormat.format"))
                .toList());
  }

  private static List<String> segmentNames(IndexShard shard) {
    return shard.withSearcher(
        s ->
            s.getIndexReader().leaves().stream()
                .map(l -> ((SegmentReader) l.reader()).getSegmentName())
                .toList());
  }

  private static void assertFindsNearest(
      VectorIndex index, List<float[]> corpus, int n, List<float[]> queries, String when) {
    VectorIndex.Model m = index.model(MODEL.modelId()).orElseThrow();
    int found = 0;
    int wanted = 0;
    for (float[] q : queries) {
      List<String> exact = bruteForce(corpus, n, q, 10);
      List<String> got = index.search(m, NS, q, 10).stream().map(VectorIndex.Hit::id).toList();
      assertThat(got).as("%s: the nearest vector, seed %d", when, SEED).startsWith(exact.get(0));
      wanted += exact.size();
      found += (int) exact.stream().filter(got::contains).count();
    }
    assertThat((double) found / wanted).as("%s: recall@10", when).isGreaterThan(0.9);
  }
}
