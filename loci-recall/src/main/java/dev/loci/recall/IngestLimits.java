package dev.loci.recall;

/**
 * How much one ingest may write, checked before anything is written: a document over a limit fails
 * the whole call with {@link dev.loci.LimitExceededException} naming the limit. The defaults allow
 * a large contract or runbook and refuse what would exhaust memory or disk.
 *
 * @param bytesPerDocument the most UTF-8 bytes of one document's text ({@code
 *     ingest_bytes_per_document})
 * @param documentsPerRequest the most documents in one call ({@code ingest_documents_per_request})
 * @param unitsPerDocument the most nodes one document may write ({@code ingest_units_per_document})
 * @param edgesPerDocument the most edges one document may write ({@code ingest_edges_per_document})
 */
public record IngestLimits(
    long bytesPerDocument, int documentsPerRequest, int unitsPerDocument, int edgesPerDocument) {
  /** Checks that every limit is positive. */
  public IngestLimits {
    if (bytesPerDocument < 1
        || documentsPerRequest < 1
        || unitsPerDocument < 1
        || edgesPerDocument < 1) {
      throw new IllegalArgumentException("every ingest limit must be 1 or more");
    }
  }

  /** 8 MiB, 1,000 documents, 50,000 units and 500,000 edges per document. */
  public static IngestLimits defaults() {
    return new IngestLimits(8L << 20, 1_000, 50_000, 500_000);
  }
}
