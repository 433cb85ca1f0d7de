package dev.loci.recall.internal;

import java.util.function.BooleanSupplier;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.KnnVectorsFormat;
import org.apache.lucene.codecs.lucene912.Lucene912Codec;
import org.apache.lucene.codecs.lucene99.Lucene99HnswScalarQuantizedVectorsFormat;
import org.apache.lucene.codecs.lucene99.Lucene99HnswVectorsFormat;

/**
 * How the vector indexes build their HNSW graphs: Lucene's codec with the vector format of every
 * field replaced by an HNSW format of chosen {@code M} (neighbours per node) and {@code beamWidth}
 * (candidates explored while inserting), with or without 8-bit scalar quantization.
 *
 * <p>Compatibility: both parameters only shape the graph written; a segment records its vector
 * format by name ({@code Lucene99HnswVectorsFormat}, or the quantized one), not the parameters, so
 * an index written with other values (or Lucene's defaults, 16 and 100) stays readable and
 * searchable, and its segments are rebuilt with these values as they merge.
 *
 * @param maxConn HNSW's {@code M}
 * @param beamWidth HNSW's {@code efConstruction}
 * @param quantized whether vectors are also kept as 8-bit integers that the graph is searched with
 */
public record VectorCodec(int maxConn, int beamWidth, boolean quantized) {
  /** Lucene's defaults: what indexes written before this class used. */
  public static final VectorCodec LUCENE_DEFAULT = new VectorCodec(16, 100, false);

  /** Checks the values. */
  public VectorCodec {
    if (maxConn < 2 || maxConn > 512) {
      throw new IllegalArgumentException("maxConn must be 2 to 512, got " + maxConn);
    }
    if (beamWidth < 1 || beamWidth > 3200) {
      throw new IllegalArgumentException("beamWidth must be 1 to 3200, got " + beamWidth);
    }
  }

  /** The Lucene codec that writes vectors this way. */
  public Codec codec() {
    return codec(() -> true);
  }

  /**
   * The Lucene codec that writes vectors this way while {@code graphs} says so, and without a graph
   * ({@link FlatVectorFormat}) otherwise. Lucene asks the codec for the format when a segment takes
   * its first vector in memory (the graph grows as vectors are added) and when segments merge, so a
   * segment is written the way {@code graphs} said then; every segment records its format by name
   * and is read back that way whatever {@code graphs} says later.
   */
  Codec codec(BooleanSupplier graphs) {
    KnnVectorsFormat graph =
        quantized
            ? new Lucene99HnswScalarQuantizedVectorsFormat(maxConn, beamWidth)
            : new Lucene99HnswVectorsFormat(maxConn, beamWidth);
    KnnVectorsFormat flat = new FlatVectorFormat();
    return new Lucene912Codec() {
      @Override
      public KnnVectorsFormat getKnnVectorsFormatForField(String field) {
        return graphs.getAsBoolean() ? graph : flat;
      }
    };
  }

  @Override
  public String toString() {
    return "M " + maxConn + ", beamWidth " + beamWidth + (quantized ? ", int8" : "");
  }
}
