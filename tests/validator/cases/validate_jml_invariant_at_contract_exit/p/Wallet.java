package p;

public class Wallet {
  private int balance;

  // Meets its contract's ensures, and takes balance past 1000 from 995.
  public void deposit(int amount) {
    balance += amount;
  }
}
