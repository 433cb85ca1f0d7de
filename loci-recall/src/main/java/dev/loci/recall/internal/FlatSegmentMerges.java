package dev.loci.recall.internal;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.apache.lucene.index.FilterMergePolicy;
import org.apache.lucene.index.MergePolicy;
import org.apache.lucene.index.SegmentCommitInfo;
import org.apache.lucene.index.SegmentInfos;

/**
 * A merge policy that, asked for a forced merge to {@link #FLAT_ONLY} segments, merges exactly the
 * segments whose vectors were written without a graph ({@link FlatVectorFormat} marks them) into
 * one, which the codec then writes with a graph; every other request goes to the wrapped policy.
 *
 * <p>So a namespace that crosses {@link VectorIndex#exactBelow()} gets graphs for the vectors
 * written before by rewriting those alone, not its whole index: after a restart, a crash during
 * that merge, or on a large namespace whose older segments already have graphs, the cost is that of
 * the graph-less segments. Stateless and thread-safe as the wrapped policy is.
 */
final class FlatSegmentMerges extends FilterMergePolicy {
  /** The segment count {@code IndexWriter.forceMerge} is given to ask for this merge. */
  static final int FLAT_ONLY = Integer.MAX_VALUE;

  FlatSegmentMerges(MergePolicy in) {
    super(in);
  }

  @Override
  public MergeSpecification findForcedMerges(
      SegmentInfos infos,
      int maxSegmentCount,
      Map<SegmentCommitInfo, Boolean> segmentsToMerge,
      MergeContext context)
      throws IOException {
    if (maxSegmentCount != FLAT_ONLY) {
      return super.findForcedMerges(infos, maxSegmentCount, segmentsToMerge, context);
    }
    List<SegmentCommitInfo> flat = new ArrayList<>();
    for (SegmentCommitInfo s : infos) {
      if (segmentsToMerge.containsKey(s)
          && !context.getMergingSegments().contains(s)
          && FlatVectorFormat.FLAT.equals(s.info.getAttribute(FlatVectorFormat.SEGMENT_KEY))) {
        flat.add(s);
      }
    }
    if (flat.isEmpty()) {
      return null;
    }
    MergeSpecification spec = new MergeSpecification();
    spec.add(new OneMerge(flat));
    return spec;
  }
}
