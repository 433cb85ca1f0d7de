package dev.loci.bench;

import dev.loci.recall.internal.VectorCodec;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import org.apache.lucene.document.Document;
import org.apache.lucene.document.KnnFloatVectorField;
import org.apache.lucene.document.NumericDocValuesField;
import org.apache.lucene.index.DirectoryReader;
import org.apache.lucene.index.FloatVectorValues;
import org.apache.lucene.index.IndexWriter;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.index.LeafReaderContext;
import org.apache.lucene.index.NumericDocValues;
import org.apache.lucene.index.ReaderUtil;
import org.apache.lucene.index.TieredMergePolicy;
import org.apache.lucene.index.VectorSimilarityFunction;
import org.apache.lucene.search.DocIdSetIterator;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.KnnFloatVectorQuery;
import org.apache.lucene.search.ScoreDoc;
import org.apache.lucene.store.FSDirectory;
import org.apache.lucene.util.VectorUtil;

/**
 * HNSW recall against the exact scan on real model vectors: what share of the exact top 10 the
 * vector index's graph search finds, and how long it takes, for several graph settings ({@link
 * VectorCodec}: {@code M}, {@code beamWidth}, 8-bit quantization) and candidate counts ({@code
 * ef}), at several corpus sizes.
 *
 * <p>Vectors are read from embedding cache files ({@code cache/embeddings/<model>.bin}, written by
 * {@code loci ingest} or {@code loci bench locomo}): the documents from some, the queries (held
 * out, for example the questions' file {@code <model>.queries.bin}) from another. A corpus larger
 * than the real vectors is filled up with vectors made from them: {@code normalize(w·a + (1-w)·b +
 * noise)} for two random real vectors {@code a} and {@code b}, {@code w} uniform in [0.5, 1) and
 * Gaussian noise of 0.01 per dimension; they keep the real vectors' shape (a strong common
 * direction, clusters) but are not texts, which the report says.
 *
 * <p>Each index is written as Loci writes its vector shards (a {@code KnnFloatVectorField} with dot
 * product, 64 MB buffer, 3 segments per tier, committed, not merged to one segment) and searched as
 * {@code VectorIndex} searches: {@code KnnFloatVectorQuery} with {@code max(ef, k + 16)}
 * candidates, the best {@code k + 16} kept.
 */
public final class HnswBenchmark {
  private HnswBenchmark() {}

  private static final String VEC = "vec";
  private static final String ORD = "ord";
  private static final int K = 10;

  /** How many queries the exact scan is timed on. */
  static final int EXACT_TIMED = 50;

  /** The RAM buffer of Loci's vector shards, in MB. */
  static final int RAM_BUFFER_MB = 64;

  /**
   * What to measure.
   *
   * @param documents cache files whose vectors make the corpus
   * @param queries the cache file whose vectors are the queries
   * @param sizes corpus sizes
   * @param codecs the graph settings
   * @param candidates the search's candidate counts
   * @param queryCount queries per measurement, at most as many as the file holds
   * @param workDir where the indexes are written (and deleted unless {@code keep})
   * @param keep whether to keep each index ({@code hnsw-<size>-<M>-<beamWidth>[-int8][-bufN]} under
   *     {@code workDir}) and to search one found there again instead of building it
   * @param ramBufferMb the writer's RAM buffer: {@value #RAM_BUFFER_MB} as Loci's vector shards; a
   *     larger one writes fewer, larger segments, as a shard's merges end with, without the cost of
   *     merging
   */
  public record Options(
      List<Path> documents,
      Path queries,
      List<Integer> sizes,
      List<VectorCodec> codecs,
      List<Integer> candidates,
      int queryCount,
      Path workDir,
      boolean keep,
      int ramBufferMb) {
    /** Checks the values and copies the lists. */
    public Options {
      documents = List.copyOf(documents);
      Objects.requireNonNull(queries, "queries");
      sizes = List.copyOf(sizes);
      codecs = List.copyOf(codecs);
      candidates = List.copyOf(candidates);
      Objects.requireNonNull(workDir, "workDir");
      if (documents.isEmpty() || sizes.isEmpty() || codecs.isEmpty() || candidates.isEmpty()) {
        throw new IllegalArgumentException("documents, sizes, codecs and candidates must be given");
      }
      if (sizes.stream().anyMatch(s -> s < K) || candidates.stream().anyMatch(c -> c < 1)) {
        throw new IllegalArgumentException(
            "sizes must be at least " + K + " and candidates at least 1");
      }
      if (queryCount < 1) {
        throw new IllegalArgumentException("queryCount must be at least 1, got " + queryCount);
      }
      if (ramBufferMb < 1 || ramBufferMb > 2000) {
        throw new IllegalArgumentException("ramBufferMb must be 1 to 2000, got " + ramBufferMb);
      }
    }
  }

  /**
   * One measurement.
   *
   * @param size vectors in the corpus
   * @param codec the graph settings, empty for the exact scan
   * @param candidates the search's candidate count, 0 for the exact scan
   * @param buildSeconds how long writing and committing the index took
   * @param segments segments in the committed index
   * @param recall the mean share of the exact top 10 found in the top 10
   * @param p50Millis median latency of one query
   * @param p99Millis 99th percentile latency of one query
   */
  public record Row(
      int size,
      String codec,
      int candidates,
      double buildSeconds,
      int segments,
      double recall,
      double p50Millis,
      double p99Millis) {}

  /**
   * The result.
   *
   * @param machine where it ran
   * @param real how many real document vectors there were
   * @param queries how many queries were asked
   * @param rows the measurements
   */
  public record Report(Machine machine, int real, int queries, List<Row> rows) {
    /** Copies the list. */
    public Report {
      rows = List.copyOf(rows);
    }

    /** A Markdown paragraph and table. */
    public String toMarkdown() {
      StringBuilder b = new StringBuilder(machine.toMarkdown());
      b.append(Format.count(real))
          .append(
              " real document vectors (larger corpora filled up with vectors mixed from them), ")
          .append(queries)
          .append(" held-out queries, recall@")
          .append(K)
          .append(" against the exact scan.\n\n");
      Format.row(
          b, "vectors", "index", "ef", "build s", "segments", "recall@10", "p50 ms", "p99 ms");
      Format.row(b, "---:", "---", "---:", "---:", "---:", "---:", "---:", "---:");
      for (Row r : rows) {
        Format.row(
            b,
            Format.count(r.size()),
            r.codec(),
            r.candidates() == 0 ? "-" : Integer.toString(r.candidates()),
            r.candidates() == 0 ? "-" : Format.fixed(r.buildSeconds(), 1),
            Integer.toString(r.segments()),
            Format.fixed(r.recall(), 3),
            Format.fixed(r.p50Millis(), 2),
            Format.fixed(r.p99Millis(), 2));
      }
      return b.toString();
    }

    /** The report as JSON. */
    public String toJson() {
      StringBuilder b = new StringBuilder("{\n  \"benchmark\": \"hnsw\",\n  \"machine\": ");
      b.append(machine.toJson())
          .append(",\n  \"real_vectors\": ")
          .append(real)
          .append(",\n  \"queries\": ")
          .append(queries)
          .append(",\n  \"rows\": [");
      for (int i = 0; i < rows.size(); i++) {
        Row r = rows.get(i);
        b.append(i == 0 ? "\n" : ",\n")
            .append("    {\"size\": ")
            .append(r.size())
            .append(", \"index\": ")
            .append(Format.quote(r.codec()))
            .append(", \"candidates\": ")
            .append(r.candidates())
            .append(", \"build_seconds\": ")
            .append(Format.number(r.buildSeconds()))
            .append(", \"segments\": ")
            .append(r.segments())
            .append(", \"recall_at_10\": ")
            .append(Format.number(r.recall()))
            .append(", \"p50_ms\": ")
            .append(Format.number(r.p50Millis()))
            .append(", \"p99_ms\": ")
            .append(Format.number(r.p99Millis()))
            .append('}');
      }
      return b.append("\n  ]\n}\n").toString();
    }
  }

  /** Runs the benchmark, logging progress to {@code log}. */
  public static Report run(Options options, PrintStream log) {
    Machine machine = Machine.start("hnsw", options.workDir(), log);
    List<float[]> real = new ArrayList<>();
    for (Path p : options.documents()) {
      real.addAll(vectors(p));
    }
    List<float[]> queries = vectors(options.queries());
    queries = queries.subList(0, Math.min(options.queryCount(), queries.size()));
    log.printf("%d real document vectors, %d queries%n", real.size(), queries.size());
    List<Row> rows = new ArrayList<>();
    for (int size : options.sizes()) {
      float[][] corpus = corpus(real, size, 42);
      int[][] truth = new int[queries.size()][];
      List<float[]> asked = queries;
      java.util.stream.IntStream.range(0, queries.size())
          .parallel()
          .forEach(q -> truth[q] = exactTop(corpus, asked.get(q)));
      for (VectorCodec codec : options.codecs()) {
        Path dir = options.workDir().resolve(indexName(size, codec, options.ramBufferMb()));
        Path buildFile = dir.resolveSibling(dir.getFileName() + ".build-seconds");
        if (!options.keep() || !Files.exists(buildFile)) {
          IngestOverlapBench.delete(dir);
        }
        try (FSDirectory fs = FSDirectory.open(dir)) {
          double build;
          if (Files.exists(buildFile) && DirectoryReader.indexExists(fs)) {
            build = Double.parseDouble(Files.readString(buildFile).strip());
            log.printf("%s: searching the index kept from an earlier run%n", dir);
          } else {
            long start = System.nanoTime();
            write(fs, corpus, codec, options.ramBufferMb());
            build = (System.nanoTime() - start) / 1e9;
            if (options.keep()) {
              Files.writeString(buildFile, Double.toString(build));
            }
          }
          try (DirectoryReader reader = DirectoryReader.open(fs)) {
            if (reader.numDocs() != size) {
              throw new IllegalStateException(
                  dir + " holds " + reader.numDocs() + " vectors, expected " + size);
            }
            IndexSearcher searcher = new IndexSearcher(reader);
            int segments = reader.leaves().size();
            log.printf(
                "%,d vectors, %s: built in %.1f s, %d segments%n", size, codec, build, segments);
            if (codec == options.codecs().get(0)) {
              rows.add(measureExact(size, segments, searcher, queries, log));
            }
            for (int ef : options.candidates()) {
              rows.add(
                  measure(size, codec, ef, false, build, segments, searcher, queries, truth, log));
              if (codec.quantized()) {
                rows.add(
                    measure(size, codec, ef, true, build, segments, searcher, queries, truth, log));
              }
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException(e);
        } finally {
          if (!options.keep()) {
            IngestOverlapBench.delete(dir);
          }
        }
      }
    }
    return new Report(machine, real.size(), queries.size(), rows);
  }

  /** The directory name of the index of {@code size} vectors written with {@code codec}. */
  static String indexName(int size, VectorCodec codec, int ramBufferMb) {
    return "hnsw-"
        + size
        + "-"
        + codec.maxConn()
        + "-"
        + codec.beamWidth()
        + (codec.quantized() ? "-int8" : "")
        + (ramBufferMb == RAM_BUFFER_MB ? "" : "-buf" + ramBufferMb);
  }

  /** The vectors of an embedding cache file, in file order, erased records left out. */
  static List<float[]> vectors(Path file) {
    try (FileChannel c = FileChannel.open(file, StandardOpenOption.READ)) {
      ByteBuffer all = ByteBuffer.allocate(Math.toIntExact(c.size()));
      while (all.hasRemaining() && c.read(all) > 0) {
        // read it all
      }
      all.flip();
      if (all.remaining() < 22 || !new String(all.array(), 0, 8, "US-ASCII").equals("LOCI-EMB")) {
        throw new IllegalArgumentException(file + " is not an embedding cache file");
      }
      int dim = all.getInt(12);
      int start = 22 + Short.toUnsignedInt(all.getShort(16));
      int record = 32 + 4 * dim + 4;
      List<float[]> out = new ArrayList<>();
      for (int at = start; at + record <= all.limit(); at += record) {
        boolean erased = true;
        for (int i = 0; i < 32 && erased; i++) {
          erased = all.get(at + i) == 0;
        }
        if (erased) {
          continue;
        }
        float[] v = new float[dim];
        for (int d = 0; d < dim; d++) {
          v[d] = all.getFloat(at + 32 + 4 * d);
        }
        out.add(v);
      }
      return out;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** {@code size} vectors: the real ones shuffled, then mixtures of them. */
  static float[][] corpus(List<float[]> real, int size, long seed) {
    Random random = new Random(seed);
    List<float[]> shuffled = new ArrayList<>(real);
    java.util.Collections.shuffle(shuffled, random);
    float[][] out = new float[size][];
    int dim = real.get(0).length;
    for (int i = 0; i < size; i++) {
      if (i < shuffled.size()) {
        out[i] = shuffled.get(i);
        continue;
      }
      float[] a = shuffled.get(random.nextInt(shuffled.size()));
      float[] b = shuffled.get(random.nextInt(shuffled.size()));
      float w = 0.5f + 0.5f * random.nextFloat();
      float[] v = new float[dim];
      for (int d = 0; d < dim; d++) {
        v[d] = w * a[d] + (1 - w) * b[d] + (float) (0.01 * random.nextGaussian());
      }
      out[i] = VectorUtil.l2normalize(v);
    }
    return out;
  }

  /** The ordinals of the {@value #K} vectors with the highest dot product, best first. */
  static int[] exactTop(float[][] corpus, float[] query) {
    double[] score = new double[corpus.length];
    java.util.PriorityQueue<Integer> heap =
        new java.util.PriorityQueue<>(Comparator.comparingDouble((Integer i) -> score[i]));
    for (int i = 0; i < corpus.length; i++) {
      score[i] = VectorUtil.dotProduct(corpus[i], query);
      if (heap.size() < K) {
        heap.add(i);
      } else if (score[i] > score[heap.peek()]) {
        heap.poll();
        heap.add(i);
      }
    }
    return heap.stream()
        .sorted(Comparator.comparingDouble((Integer i) -> score[i]).reversed())
        .mapToInt(Integer::intValue)
        .toArray();
  }

  private static void write(FSDirectory dir, float[][] corpus, VectorCodec codec, int ramBufferMb)
      throws IOException {
    IndexWriterConfig c = new IndexWriterConfig();
    c.setCodec(codec.codec());
    c.setRAMBufferSizeMB(ramBufferMb);
    TieredMergePolicy merges = new TieredMergePolicy();
    merges.setSegmentsPerTier(3);
    c.setMergePolicy(merges);
    try (IndexWriter w = new IndexWriter(dir, c)) {
      // one writing thread per core, each building its own in-memory segments' graphs
      int threads = Runtime.getRuntime().availableProcessors();
      java.util.stream.IntStream.range(0, threads)
          .parallel()
          .forEach(
              t -> {
                for (int i = t; i < corpus.length; i += threads) {
                  Document doc = new Document();
                  doc.add(
                      new KnnFloatVectorField(
                          VEC, corpus[i], VectorSimilarityFunction.DOT_PRODUCT));
                  doc.add(new NumericDocValuesField(ORD, i));
                  try {
                    w.addDocument(doc);
                  } catch (IOException e) {
                    throw new UncheckedIOException(e);
                  }
                }
              });
      w.commit();
    }
  }

  private static Row measure(
      int size,
      VectorCodec codec,
      int ef,
      boolean rerank,
      double build,
      int segments,
      IndexSearcher searcher,
      List<float[]> queries,
      int[][] truth,
      PrintStream log)
      throws IOException {
    int candidates = Math.max(ef, K + 16);
    for (float[] q : queries) {
      search(searcher, q, candidates, rerank); // warm-up
    }
    long[] nanos = new long[queries.size()];
    double found = 0;
    for (int i = 0; i < queries.size(); i++) {
      long start = System.nanoTime();
      ScoreDoc[] docs = search(searcher, queries.get(i), candidates, rerank);
      nanos[i] = System.nanoTime() - start;
      Set<Integer> want = new HashSet<>();
      Arrays.stream(truth[i]).forEach(want::add);
      for (int j = 0; j < Math.min(K, docs.length); j++) {
        if (want.contains(ordinal(searcher, docs[j].doc))) {
          found++;
        }
      }
    }
    Row row =
        new Row(
            size,
            codec + (rerank ? ", float re-rank" : ""),
            ef,
            build,
            segments,
            found / (K * queries.size()),
            percentile(nanos, 0.50),
            percentile(nanos, 0.99));
    log.printf(
        "  ef %d%s: recall@10 %.3f, p50 %.2f ms, p99 %.2f ms%n",
        ef, rerank ? " re-ranked" : "", row.recall(), row.p50Millis(), row.p99Millis());
    return row;
  }

  /**
   * The best {@code K + 16} documents for {@code q}: as {@code VectorIndex} searches, or ({@code
   * rerank}) the graph's {@code candidates} best by its own (for an 8-bit index, quantized) scores
   * ranked again by the dot product with the stored float vectors.
   */
  static ScoreDoc[] search(IndexSearcher searcher, float[] q, int candidates, boolean rerank)
      throws IOException {
    if (!rerank) {
      return searcher.search(new KnnFloatVectorQuery(VEC, q, candidates), K + 16).scoreDocs;
    }
    ScoreDoc[] docs =
        searcher.search(new KnnFloatVectorQuery(VEC, q, candidates), candidates).scoreDocs.clone();
    Arrays.sort(docs, Comparator.comparingInt((ScoreDoc d) -> d.doc));
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    FloatVectorValues values = null;
    int leafIndex = -1;
    for (ScoreDoc d : docs) {
      int at = ReaderUtil.subIndex(d.doc, leaves);
      if (at != leafIndex) {
        leafIndex = at;
        values = leaves.get(at).reader().getFloatVectorValues(VEC);
      }
      if (values.advance(d.doc - leaves.get(at).docBase) != d.doc - leaves.get(at).docBase) {
        throw new IllegalStateException("no vector for document " + d.doc);
      }
      d.score = VectorUtil.dotProduct(q, values.vectorValue());
    }
    Arrays.sort(docs, Comparator.comparingDouble((ScoreDoc d) -> d.score).reversed());
    return Arrays.copyOf(docs, Math.min(docs.length, K + 16));
  }

  /**
   * The exact scan as {@code VectorIndex} does it: every vector of every segment, timed on the
   * first {@value #EXACT_TIMED} queries (twice, the second round counted), since at a million
   * vectors each scan takes about half a second.
   */
  private static Row measureExact(
      int size, int segments, IndexSearcher searcher, List<float[]> queries, PrintStream log)
      throws IOException {
    long[] nanos = new long[Math.min(queries.size(), EXACT_TIMED)];
    for (int round = 0; round < 2; round++) {
      for (int i = 0; i < nanos.length; i++) {
        long start = System.nanoTime();
        double best = -2;
        for (LeafReaderContext leaf : searcher.getIndexReader().leaves()) {
          FloatVectorValues values = leaf.reader().getFloatVectorValues(VEC);
          for (int d = values.nextDoc(); d != DocIdSetIterator.NO_MORE_DOCS; d = values.nextDoc()) {
            best = Math.max(best, VectorUtil.dotProduct(queries.get(i), values.vectorValue()));
          }
        }
        nanos[i] = System.nanoTime() - start + (best > 2 ? 1 : 0);
      }
    }
    Row row =
        new Row(
            size, "exact scan", 0, 0, segments, 1, percentile(nanos, 0.5), percentile(nanos, 0.99));
    log.printf("  exact scan: p50 %.2f ms, p99 %.2f ms%n", row.p50Millis(), row.p99Millis());
    return row;
  }

  private static int ordinal(IndexSearcher searcher, int doc) throws IOException {
    List<LeafReaderContext> leaves = searcher.getIndexReader().leaves();
    LeafReaderContext leaf = leaves.get(ReaderUtil.subIndex(doc, leaves));
    NumericDocValues ords = leaf.reader().getNumericDocValues(ORD);
    if (!ords.advanceExact(doc - leaf.docBase)) {
      throw new IllegalStateException("no ordinal for document " + doc);
    }
    return (int) ords.longValue();
  }

  private static double percentile(long[] nanos, double p) {
    long[] sorted = nanos.clone();
    Arrays.sort(sorted);
    return sorted[Math.min(sorted.length - 1, (int) Math.ceil(p * sorted.length) - 1)] / 1e6;
  }
}
