package dev.loci.recall.internal;

import dev.loci.spi.Layer;
import dev.loci.spi.LayerProvider;

/** Registers the recall layer with every {@code Loci} opened while this module is present. */
public final class RecallLayerProvider implements LayerProvider {
  @Override
  public Layer create() {
    return new RecallLayer();
  }
}
