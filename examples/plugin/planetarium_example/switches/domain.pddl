;; A plug-in domain (the example package, examples/plugin): switches light the lamps they are wired to.
(define (domain switches)
  (:requirements :strips :typing)
  (:types switch lamp)
  (:predicates (on ?s - switch) (off ?s - switch) (wired ?s - switch ?l - lamp) (lit ?l - lamp))

  (:action flip-on
    :parameters (?s - switch)
    :precondition (off ?s)
    :effect (and (on ?s) (not (off ?s))))

  (:action flip-off
    :parameters (?s - switch)
    :precondition (on ?s)
    :effect (and (off ?s) (not (on ?s))))

  (:action light
    :parameters (?s - switch ?l - lamp)
    :precondition (and (on ?s) (wired ?s ?l))
    :effect (lit ?l)))
