package dev.loci.pathway.internal;

import dev.loci.spi.Layer;
import dev.loci.spi.LayerProvider;

/** Registers the pathway layer with every {@code Loci} opened while this module is present. */
public final class PathwayLayerProvider implements LayerProvider {
  @Override
  public Layer create() {
    return new PathwayLayer();
  }
}
