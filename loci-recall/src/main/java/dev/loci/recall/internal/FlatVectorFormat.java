package dev.loci.recall.internal;

import java.io.IOException;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.KnnVectorsReader;
import org.apache.lucene.codecs.KnnVectorsWriter;
import org.apache.lucene.codecs.hnsw.FlatVectorScorerUtil;
import org.apache.lucene.codecs.lucene99.Lucene99FlatVectorsFormat;
import org.apache.lucene.index.SegmentReadState;
import org.apache.lucene.index.SegmentWriteState;

/**
 * Vectors stored without an HNSW graph: Lucene's flat vector files ({@code
 * Lucene99FlatVectorsFormat}, the raw floats the HNSW format keeps beside its graph), under a name
 * of its own so that a segment written this way is read back through Lucene's format registry
 * ({@code META-INF/services}).
 *
 * <p>A namespace with fewer vectors than {@link VectorIndex#exactBelow()} is searched by an exact
 * scan of its vectors, which never reads a graph; writing its segments in this format saves the
 * graph build, most of the CPU an ingest spent in the vector index. Its vectors read exactly as
 * from the HNSW format ({@code FloatVectorValues}), so the scan, and its results, are the same.
 * Lucene's approximate search finds nothing in such a segment: {@link VectorIndex#search} scans
 * them instead.
 *
 * <p>Public only for Lucene's registry, which instantiates it by name; thread-safe and stateless.
 */
public final class FlatVectorFormat extends KnnVectorsFormat {
  /** The name segments record for this format. */
  public static final String NAME = "LociFlatVectors";

  /**
   * The segment attribute this format sets to {@link #FLAT} on every segment it writes vectors of,
   * so that {@link FlatSegmentMerges} finds them without opening them.
   */
  static final String SEGMENT_KEY = "loci.vectors";

  static final String FLAT = "flat";

  private final Lucene99FlatVectorsFormat flat =
      new Lucene99FlatVectorsFormat(FlatVectorScorerUtil.getLucene99FlatVectorsScorer());

  /** The format; Lucene's registry calls this. */
  public FlatVectorFormat() {
    super(NAME);
  }

  @Override
  public KnnVectorsWriter fieldsWriter(SegmentWriteState state) throws IOException {
    state.segmentInfo.putAttribute(SEGMENT_KEY, FLAT);
    return flat.fieldsWriter(state);
  }

  @Override
  public KnnVectorsReader fieldsReader(SegmentReadState state) throws IOException {
    return flat.fieldsReader(state);
  }

  @Override
  public int getMaxDimensions(String fieldName) {
    return flat.getMaxDimensions(fieldName);
  }

  @Override
  public String toString() {
    return NAME + "(" + flat + ")";
  }
}
