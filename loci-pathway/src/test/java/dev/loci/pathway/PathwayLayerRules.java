package dev.loci.pathway;

import dev.loci.pathway.internal.PathwayLayer;

/** Test access to the probation gate's rule. */
final class PathwayLayerRules {
  private PathwayLayerRules() {}

  static boolean fires(int replays, int succeeded) {
    return PathwayLayer.probationFires(replays, succeeded);
  }
}
