package legacy;

import java.io.BufferedReader;
import java.io.FileReader;
import java.io.IOException;
import legacy.pricing.Cart;
import legacy.pricing.PriceCalculator;
import legacy.pricing.QuantityParser;

/**
 * Replays a workload file, one request per line:
 *   quote UNIT_PRICE QUANTITY   the price of an order
 *   total PRICE...              the sum of some prices
 *   cart PRICE...               a cart filled with these items
 *   sleep MILLIS                pause (a slow request), saying so first
 *   exit STATUS                 stop here with that exit status
 * Blank lines and lines starting with '#' are skipped. A request that fails
 * prints "error: ..." and the replay goes on.
 */
public final class Main {
  private Main() {}

  public static void main(String[] args) throws IOException {
    if (args.length != 1) {
      System.err.println("usage: legacy WORKLOAD_FILE");
      System.exit(64);
    }
    try (BufferedReader in = new BufferedReader(new FileReader(args[0]))) {
      String line;
      while ((line = in.readLine()) != null) {
        line = line.trim();
        if (line.isEmpty() || line.startsWith("#")) {
          continue;
        }
        String[] words = line.split("\\s+");
        try {
          System.out.println(line + " -> " + handle(words));
        } catch (RuntimeException e) {
          System.out.println(line + " -> error: " + e.getClass().getSimpleName());
        }
      }
    }
  }

  private static String handle(String[] words) {
    switch (words[0]) {
      case "quote":
        return Integer.toString(PriceCalculator.quote(
            Integer.parseInt(words[1]), QuantityParser.parse(words[2])));
      case "total":
        return Integer.toString(PriceCalculator.total(numbers(words)));
      case "cart":
        Cart cart = new Cart();
        for (int price : numbers(words)) {
          cart.add(price);
        }
        return cart.getItems() + " items, " + cart.getTotal();
      case "sleep":
        System.out.println("sleeping " + words[1] + " ms");
        try {
          Thread.sleep(Long.parseLong(words[1]));
        } catch (InterruptedException e) {
          Thread.currentThread().interrupt();
        }
        return "awake";
      case "exit":
        System.out.flush();
        System.exit(Integer.parseInt(words[1]));
        return "";
      default:
        throw new IllegalArgumentException("unknown request " + words[0]);
    }
  }

  private static int[] numbers(String[] words) {
    int[] out = new int[words.length - 1];
    for (int i = 1; i < words.length; i++) {
      out[i - 1] = Integer.parseInt(words[i]);
    }
    return out;
  }
}
