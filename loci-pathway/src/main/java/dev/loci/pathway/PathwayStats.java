package dev.loci.pathway;

/**
 * Counts over the pathways of a namespace scope.
 *
 * @param pathways distinct {@code pathway_id}s
 * @param retiredPathways pathways the probation gate retired
 * @param traces traces, every version counted
 * @param headTraces traces that are head versions
 * @param replays replays recorded, counted on head versions, which carry their chain's replays
 * @param replaysSucceeded of those, the replays that succeeded
 * @param redactions personal-data matches replaced on write since the namespace began
 */
public record PathwayStats(
    long pathways,
    long retiredPathways,
    long traces,
    long headTraces,
    long replays,
    long replaysSucceeded,
    long redactions) {}
