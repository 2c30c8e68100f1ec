package shop;

/** Codes of the store's own brands. */
public class Brands {
  public static int privateLabelCode(int aisle) {
    return 4000 + aisle * 17;
  }
}
