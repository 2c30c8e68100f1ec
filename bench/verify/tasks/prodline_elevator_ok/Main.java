// expect: SUCCESSFUL
// A product line of elevators: the features (weight limit, empty-cabin
// parking) are static flags chosen nondeterministically, the cabin, the
// floors and the passengers live in static fields of object type, the
// direction is an enum read through switches, and every time step the
// environment calls the cabin to a nondeterministic floor.
// Property: the cabin stays between the floors and never carries more
// passengers than the weight limit allows.
package prodline_elevator_ok;

import org.sosy_lab.sv_benchmarks.Verifier;

public class Main {
  enum Direction { UP, DOWN, IDLE }

  static final int FLOORS = 3;
  static final int LIMIT = 1;

  static boolean weightFeature;
  static boolean parkFeature;
  static Cabin cabin;
  static Floor[] floors;
  static Person ann;
  static Person ben;

  static class Person {
    final int origin;
    final int destination;
    boolean inside;
    boolean arrived;

    Person(int origin, int destination) {
      this.origin = origin;
      this.destination = destination;
    }
  }

  static class Floor {
    boolean called;

    void call() {
      called = true;
    }

    void served() {
      called = false;
    }
  }

  static class Cabin {
    int floor;
    int load;
    Direction direction = Direction.IDLE;

    boolean full() {
      return weightFeature && load >= LIMIT;
    }

    void board(Person p) {
      if (!p.inside && !p.arrived && p.origin == floor && !full()) {
        p.inside = true;
        load++;
      }
    }

    void alight(Person p) {
      if (p.inside && p.destination == floor) {
        p.inside = false;
        p.arrived = true;
        load--;
      }
    }

    void chooseDirection() {
      boolean above = false;
      boolean below = false;
      for (int f = 0; f < FLOORS; f++) {
        if (floors[f].called && f > floor) above = true;
        if (floors[f].called && f < floor) below = true;
      }
      switch (direction) {
        case UP: direction = above ? Direction.UP : below ? Direction.DOWN : Direction.IDLE; break;
        case DOWN: direction = below ? Direction.DOWN : above ? Direction.UP : Direction.IDLE; break;
        default: direction = above ? Direction.UP : below ? Direction.DOWN : Direction.IDLE; break;
      }
      if (parkFeature && direction == Direction.IDLE && load == 0 && floor > 0) {
        direction = Direction.DOWN;
      }
    }

    void move() {
      switch (direction) {
        case UP: if (floor < FLOORS - 1) floor++; break;
        case DOWN: if (floor > 0) floor--; break;
        default: break;
      }
    }

    void timeShift() {
      alight(ann);
      alight(ben);
      board(ann);
      board(ben);
      floors[floor].served();
      chooseDirection();
      move();
    }
  }

  static void check() {
    assert cabin.floor >= 0 && cabin.floor < FLOORS;
    assert !weightFeature || cabin.load <= LIMIT;
  }

  public static void main(String[] args) {
    weightFeature = Verifier.nondetBoolean();
    parkFeature = Verifier.nondetBoolean();
    floors = new Floor[FLOORS];
    for (int f = 0; f < FLOORS; f++) floors[f] = new Floor();
    ann = new Person(0, 2);
    ben = new Person(1, 0);
    cabin = new Cabin();
    for (int step = 0; step < 3; step++) {
      int called = Verifier.nondetInt();
      if (called >= 0 && called < FLOORS) floors[called].call();
      cabin.timeShift();
      check();
    }
  }
}
