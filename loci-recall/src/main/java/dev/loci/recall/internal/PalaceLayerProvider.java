package dev.loci.recall.internal;

import dev.loci.spi.Layer;
import dev.loci.spi.LayerProvider;

/**
 * Registers the memory palace layer with every {@code Loci} opened while this module is present.
 */
public final class PalaceLayerProvider implements LayerProvider {
  @Override
  public Layer create() {
    return new PalaceLayer();
  }
}
