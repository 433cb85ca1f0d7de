package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.apache.lucene.analysis.standard.StandardAnalyzer;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.index.SegmentReader;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.TopDocs;
import org.apache.lucene.util.VectorUtil;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A vector shard written with one graph setting opens, answers and takes new vectors under another:
 * indexes written before {@link VectorIndex#GRAPH} changed stay usable without a rebuild.
 */
class VectorCodecTest {
  private static final String FORMAT = "test-vectors-1";

  @TempDir Path tmp;

  private static float[] vector(Random r) {
    float[] v = new float[16];
    for (int d = 0; d < v.length; d++) {
      v[d] = (float) r.nextGaussian();
    }
    return VectorUtil.l2normalize(v);
  }

  private static void put(IndexShard shard, String id, float[] v) {
    Document doc = new Document();
    doc.add(new KnnFloatVectorField(VectorIndex.VECTOR, v, VectorSimilarityFunction.DOT_PRODUCT));
    shard.put(id, 1, doc);
  }

  private static List<String> nearest(IndexShard shard, float[] q, int k) {
    return shard.withSearcher(
        s -> {
          TopDocs top = s.search(new KnnFloatVectorQuery(VectorIndex.VECTOR, q, 50), k);
          return IndexShard.ids(s, top.scoreDocs);
        });
  }

  private static List<String> formats(IndexShard shard) {
    return shard.withSearcher(
        s -> {
          List<String> out = new ArrayList<>();
          s.getIndexReader()
              .leaves()
              .forEach(
                  l ->
                      out.add(
                          ((SegmentReader) l.reader())
                              .getFieldInfos()
                              .fieldInfo(VectorIndex.VECTOR)
                              .getAttribute("PerFieldKnnVectorsFormat.format")));
          return out;
        });
  }

  @Test
  void shardWrittenWithLuceneDefaults_opensUnderAnotherGraph_andFindsOldAndNewVectors() {
    Path dir = tmp.resolve("shard");
    Random r = new Random(7);
    List<float[]> vectors = new ArrayList<>();
    for (int i = 0; i < 300; i++) {
      vectors.add(vector(r));
    }
    StandardAnalyzer analyzer = new StandardAnalyzer();
    try (IndexShard old =
        IndexShard.open(
            Optional.of(dir),
            FORMAT,
            analyzer,
            new IndexShard.Tuning(3, VectorCodec.LUCENE_DEFAULT.codec()))) {
      for (int i = 0; i < 200; i++) {
        put(old, "n" + i, vectors.get(i));
      }
      old.commit(1);
    }

    VectorCodec changed = new VectorCodec(32, 200, true);
    try (IndexShard shard =
        IndexShard.open(
            Optional.of(dir), FORMAT, analyzer, new IndexShard.Tuning(3, changed.codec()))) {
      assertThat(shard.recordedSeq()).as("reused, not rebuilt").isEqualTo(1);
      assertThat(shard.size()).isEqualTo(200);
      // every old vector is its own nearest neighbour
      for (int i = 0; i < 200; i += 20) {
        assertThat(nearest(shard, vectors.get(i), 1)).containsExactly("n" + i);
      }
      for (int i = 200; i < 300; i++) {
        put(shard, "n" + i, vectors.get(i));
      }
      shard.commit(2);
      assertThat(formats(shard))
          .contains("Lucene99HnswVectorsFormat", "Lucene99HnswScalarQuantizedVectorsFormat");
      for (int i = 0; i < 300; i += 25) {
        assertThat(nearest(shard, vectors.get(i), 1)).containsExactly("n" + i);
      }
    }
  }

  @Test
  void settingsOutOfRange_refusedNamingTheValue() {
    assertThatThrownBy(() -> new VectorCodec(1, 100, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("maxConn")
        .hasMessageContaining("1");
    assertThatThrownBy(() -> new VectorCodec(16, 0, false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("beamWidth");
  }
}
