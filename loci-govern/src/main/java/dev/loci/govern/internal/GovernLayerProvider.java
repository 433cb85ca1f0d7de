package dev.loci.govern.internal;

import dev.loci.spi.Layer;
import dev.loci.spi.LayerProvider;

/**
 * Registers the governed-memory layer with every {@code Loci} opened while this module is present.
 */
public final class GovernLayerProvider implements LayerProvider {
  @Override
  public Layer create() {
    return new GovernLayer();
  }
}
