/**
 * Where other modules plug into the engine: a {@link dev.loci.spi.Journal} implementation stores
 * batches, a {@link dev.loci.spi.Layer} contributes events and the projection they build.
 */
package dev.loci.spi;
