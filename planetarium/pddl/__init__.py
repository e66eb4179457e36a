"""Reading PDDL: tolerant extraction from model output, domain and problem parsing, writing."""

from .domain import Action, Atom, DomainDef, parse_domain
from .extract import extract_problem
from .problem import Problem, declared_domain_name, parse_problem, read_problem
from .writer import atom_to_pddl, problem_to_pddl

__all__ = [
    "Action", "Atom", "DomainDef", "Problem", "atom_to_pddl", "declared_domain_name",
    "extract_problem", "parse_domain", "parse_problem", "problem_to_pddl", "read_problem",
]
